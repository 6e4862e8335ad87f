package printing

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"jiaohao/model"
)

// timedEngine is a fake speech engine that takes a little time per
// utterance and records when each one ran, to prove nothing overlaps.
type timedEngine struct {
	mu          sync.Mutex
	spans       []span
	inflight    int
	maxInflight int
	hold        func(text string) // may block, to look at the announcer meanwhile
	err         error
}

type span struct {
	what       string
	start, end time.Time
}

func (e *timedEngine) Name() string { return "fake" }

func (e *timedEngine) Speak(ctx context.Context, text, lang string) error {
	return e.do(ctx, lang+":"+text)
}

func (e *timedEngine) Play(ctx context.Context, wav string) error { return e.do(ctx, "play:"+wav) }

func (e *timedEngine) do(ctx context.Context, what string) error {
	e.mu.Lock()
	e.inflight++
	e.maxInflight = max(e.maxInflight, e.inflight)
	start := time.Now()
	e.mu.Unlock()
	if e.hold != nil {
		e.hold(what)
	}
	sleepCtx(ctx, 5*time.Millisecond) // an utterance takes time
	e.mu.Lock()
	defer e.mu.Unlock()
	e.inflight--
	e.spans = append(e.spans, span{what, start, time.Now()})
	return e.err
}

func (e *timedEngine) said() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, s := range e.spans {
		out = append(out, s.what)
	}
	return out
}

// Two calls in quick succession: the second waits for the first, each is
// said twice, and no two utterances ever overlap.
func TestAnnouncerSpeaksInOrderWithoutOverlap(t *testing.T) {
	speaking := make(chan struct{})
	resume := make(chan struct{})
	var once sync.Once
	e := &timedEngine{hold: func(string) {
		once.Do(func() { close(speaking); <-resume })
	}}
	a := NewAnnouncer(AnnouncerConfig{Engine: e, Pause: time.Millisecond, Logf: quietLog})
	defer a.Close()

	a.Announce(model.Ticket{Number: "A012", Window: 3})
	<-speaking // A012 is being said right now
	a.Announce(model.Ticket{Number: "B004", Window: 1})
	close(resume)
	if err := a.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}

	want := []string{
		"zh:请 A 零 一 二 号到 3 号窗口办理", "zh:请 A 零 一 二 号到 3 号窗口办理",
		"zh:请 B 零 零 四 号到 1 号窗口办理", "zh:请 B 零 零 四 号到 1 号窗口办理",
	}
	if got := e.said(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("said %q\nwant %q", got, want)
	}
	if e.maxInflight != 1 {
		t.Errorf("%d utterances overlapped", e.maxInflight)
	}
	for i := 1; i < len(e.spans); i++ {
		if e.spans[i].start.Before(e.spans[i-1].end) {
			t.Errorf("utterance %d started before %d ended", i, i-1)
		}
	}
	if f := a.Fault(); f != "" {
		t.Errorf("fault: %s", f)
	}
}

func TestAnnouncerChimeAndEnglish(t *testing.T) {
	e := &timedEngine{}
	a := NewAnnouncer(AnnouncerConfig{Engine: e, Repeat: 1, English: true, Chime: "chime.wav", Logf: quietLog})
	defer a.Close()
	a.Announce(model.Ticket{Number: "V001", Window: 12})
	if err := a.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	want := "play:chime.wav|zh:请 V 零 零 一 号到 12 号窗口办理|en:Number V zero zero one, please go to window 12"
	if got := strings.Join(e.said(), "|"); got != want {
		t.Errorf("said %q\nwant %q", got, want)
	}
}

// A failing engine is reported, then cleared by the next good call.
func TestAnnouncerEngineFailureIsReported(t *testing.T) {
	e := &timedEngine{err: errors.New("audio device busy")}
	a := NewAnnouncer(AnnouncerConfig{Engine: e, Repeat: 1, Logf: quietLog})
	defer a.Close()
	a.Announce(model.Ticket{Number: "A001", Window: 1})
	if err := a.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if f := a.Fault(); !strings.Contains(f, "audio device busy") {
		t.Errorf("fault %q", f)
	}
	e.mu.Lock()
	e.err = nil
	e.mu.Unlock()
	a.Announce(model.Ticket{Number: "A002", Window: 1})
	if err := a.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if f := a.Fault(); f != "" {
		t.Errorf("fault after recovery: %q", f)
	}
}

// Without an engine the screen keeps working: Announce returns, the fault
// names the engine, and the log says it once, not once per call.
func TestMissingEngineReportedOnce(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var logs []string
	a := NewAnnouncer(AnnouncerConfig{EngineName: EngineEspeak, Logf: func(f string, args ...any) {
		logs = append(logs, fmt.Sprintf(f, args...))
	}})
	for i := 0; i < 3; i++ {
		a.Announce(model.Ticket{Number: "A001", Window: 1})
	}
	if err := a.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if f := a.Fault(); !strings.Contains(f, "espeak-ng") {
		t.Errorf("fault %q does not name the engine", f)
	}
	if len(logs) != 1 {
		t.Errorf("logged %d times: %q", len(logs), logs)
	}
	if _, err := FindEngine("festival"); model.ErrorCode(err) != model.EInvalidInput {
		t.Errorf("unknown engine name: %v", err)
	}
}

// With espeak-ng installed, a real announcement renders to a WAV file.
func TestEspeakWritesWAV(t *testing.T) {
	path := requireTool(t, "espeak-ng")
	wav := filepath.Join(t.TempDir(), "call.wav")
	a := NewAnnouncer(AnnouncerConfig{Engine: &Espeak{Path: path, WAV: wav}, Repeat: 1, Logf: quietLog})
	defer a.Close()
	a.Announce(model.Ticket{Number: "A012", Window: 3})
	if err := a.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if f := a.Fault(); f != "" {
		t.Fatalf("espeak-ng failed: %s", f)
	}
	b, err := os.ReadFile(wav)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) <= 44 || !bytes.HasPrefix(b, []byte("RIFF")) || !bytes.Equal(b[8:12], []byte("WAVE")) {
		t.Errorf("not a WAV with sound: %d bytes", len(b))
	}
}

// playFails is an engine whose sound player is missing: the chime fails,
// the call is still spoken, and the fault says why.
type playFails struct{ timedEngine }

func (p *playFails) Play(context.Context, string) error { return errors.New("no sound player") }

func TestChimeFailureStillSpeaks(t *testing.T) {
	e := &playFails{}
	a := NewAnnouncer(AnnouncerConfig{Engine: e, Repeat: 1, Chime: ChimeDefault, Logf: quietLog})
	defer a.Close()
	a.Announce(model.Ticket{Number: "A003", Window: 2})
	if err := a.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if got := e.said(); len(got) != 1 || !strings.Contains(got[0], "A 零 零 三") {
		t.Errorf("said %q", got)
	}
	if f := a.Fault(); !strings.Contains(f, "no sound player") {
		t.Errorf("fault %q", f)
	}
}

func TestChimeWAV(t *testing.T) {
	b := ChimeWAV()
	if !bytes.HasPrefix(b, []byte("RIFF")) || string(b[8:16]) != "WAVEfmt " || string(b[36:40]) != "data" {
		t.Fatalf("bad WAV header % X", b[:44])
	}
	if n := binary.LittleEndian.Uint32(b[40:44]); int(n) != len(b)-44 || n < 16000*2 {
		t.Errorf("data size %d of %d bytes", n, len(b))
	}
	path, err := chimeFile(ChimeDefault)
	if err != nil {
		t.Fatal(err)
	}
	if disk, err := os.ReadFile(path); err != nil || !bytes.Equal(disk, b) {
		t.Errorf("built-in chime file %s: %v", path, err)
	}
}

// A manager's change of the voice settings reaches the hall without a
// restart: the next call is said with the new template and repeats.
func TestAnnouncerRetunes(t *testing.T) {
	e := &timedEngine{}
	a := NewAnnouncer(AnnouncerConfig{Engine: e, Repeat: 1, Pause: time.Millisecond})
	defer a.Close()
	ctx := testCtx(t)
	a.Announce(model.Ticket{Number: "A001", Window: 1})
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	a.Retune(AnnouncerConfig{Template: "{number} 请到 {window} 号", Repeat: 2})
	a.Announce(model.Ticket{Number: "A002", Window: 3})
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	said := e.said()
	want := []string{"zh:" + SpeechText(model.DefaultSettings["voice_template"], model.Ticket{Number: "A001", Window: 1}, "zh")}
	next := "zh:" + SpeechText("{number} 请到 {window} 号", model.Ticket{Number: "A002", Window: 3}, "zh")
	want = append(want, next, next)
	if strings.Join(said, "|") != strings.Join(want, "|") {
		t.Fatalf("said %q, want %q", said, want)
	}
}
