package printing

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// blockingPlayer plays until released, counting the chimes it played.
type blockingPlayer struct {
	started chan string
	release chan struct{}
	mu      sync.Mutex
	plays   int
}

func (p *blockingPlayer) Name() string                                { return "fake" }
func (p *blockingPlayer) Speak(context.Context, string, string) error { return nil }
func (p *blockingPlayer) Play(_ context.Context, wav string) error {
	p.started <- wav
	<-p.release
	p.mu.Lock()
	defer p.mu.Unlock()
	p.plays++
	return nil
}

// One chime at a time: one asked for while another plays is dropped, the
// next after it plays again, and it is the built-in chime. Each step that
// waits on the player is bounded: a second chime that stopped being
// dropped blocks the player, and the test then fails instead of hanging.
func TestAlertChimeOneAtATime(t *testing.T) {
	p := &blockingPlayer{started: make(chan string), release: make(chan struct{})}
	c := NewAlertChime(p, "", t.Logf)
	c.Play()
	var wav string
	within(t, "the first chime starting", func() { wav = <-p.started })
	if !strings.HasSuffix(wav, "jiaohao-chime.wav") {
		t.Fatalf("played %q, want the built-in chime", wav)
	}
	c.Play() // dropped: the first still plays
	within(t, "the first chime ending with nothing played on top", func() { p.release <- struct{}{}; c.Wait() })
	c.Play()
	within(t, "the next chime", func() { <-p.started; p.release <- struct{}{}; c.Wait() })
	if p.plays != 2 {
		t.Fatalf("%d chimes played, want 2", p.plays)
	}
}

// within runs step and fails the test if it has not returned by a deadline
// far beyond any real wait: the deadline only turns a hang into a failure,
// it says nothing about speed.
func within(t *testing.T, what string, step func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); step() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: still waiting after 30 s", what)
	}
}
