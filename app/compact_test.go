package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"jiaohao/app/desk"
	"jiaohao/dao/daotest"
	"jiaohao/model"
	"jiaohao/screens"
	"jiaohao/screens/offscreen"
)

// fakeDesk is a desktop's hotkeys in memory; taken keys are another
// program's.
type fakeDesk struct {
	mu     sync.Mutex
	taken  map[string]bool
	fire   map[string]func()
	closed bool
}

func (f *fakeDesk) Grab(k desk.Key, fire func()) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.taken[k.String()] {
		return fmt.Errorf("%s: %w", k, desk.ErrTaken)
	}
	f.fire[k.String()] = fire
	return nil
}

func (f *fakeDesk) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}

func (f *fakeDesk) isClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}

// The compact mode is this PC's: the next caller on it starts as the
// strip. The hotkeys of the setting are grabbed, a taken one is refused
// with its sentence, and they are let go when the caller ends.
func TestCompactRememberedPerPC(t *testing.T) {
	st := daotest.SQLite(t)
	if _, err := st.TakeTicket(context.Background(), "A", 0, "test"); err != nil {
		t.Fatal(err)
	}
	a := offscreen.Serialise(test.NewTempApp(t))
	p := a.Preferences()
	cfg := Config{Role: model.RoleCaller, Window: 1, Hotkeys: "call=F8,pass=F10"}
	var logs []string
	logf := func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }
	start := func(keys *fakeDesk) (*screens.Caller, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		w := a.NewWindow("caller")
		var c *screens.Caller
		offscreen.Do(func() { c = screens.NewCaller(ctx, w, st, 1, nil) })
		t.Cleanup(func() { cancel(); c.Wait() })
		<-c.Loaded()
		offscreen.Do(func() {
			callerDesk(ctx, p, w, c, cfg, func() (desk.Hotkeys, error) { return keys, nil }, logf)
		})
		return c, cancel
	}

	keys := &fakeDesk{taken: map[string]bool{"F10": true}, fire: map[string]func(){}}
	c, stop := start(keys)
	if c.Compact() {
		t.Fatal("a PC that never chose the strip starts with it")
	}
	if want := screens.Text("hotkey.taken", "Key", "F10"); !strings.Contains(strings.Join(logs, "\n"), want) {
		t.Fatalf("F10 was not refused with %q: %q", want, logs)
	}
	offscreen.Do(func() { c.SetCompact(true) })
	if !p.Bool(prefCompact) {
		t.Fatal("the strip was not remembered")
	}
	keys.fire["F8"]()
	eventually(t, "A001 called by F8", func() bool { return ticketStatus(t, st, 1).Status == model.Called })
	stop()
	eventually(t, "the hotkeys let go", keys.isClosed)

	again, _ := start(&fakeDesk{fire: map[string]func(){}})
	if !again.Compact() {
		t.Fatal("the next caller on this PC does not start as the strip")
	}
}

// eventually waits for cond; the deadline only turns a hang into a failure.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func ticketStatus(t *testing.T, st model.Store, id int64) model.Ticket {
	t.Helper()
	tk, err := st.Ticket(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}
