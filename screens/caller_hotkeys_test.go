package screens

import (
	"strings"
	"sync"
	"testing"

	"jiaohao/model"
)

// fakeKeys is a desktop's hotkeys in memory: it refuses the keys in taken
// as the system would, and press fires a grabbed key from a goroutine of
// its own, as a desktop's event loop does.
type fakeKeys struct {
	taken map[string]bool
	mu    sync.Mutex
	fire  map[string]func()
}

func (f *fakeKeys) Grab(key string, fire func()) error {
	if f.taken[key] {
		return model.Errorf(model.EConflict, "热键 %s 已被占用 (the hotkey %s is taken)", key, key)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fire[key] = fire
	return nil
}

func (f *fakeKeys) press(t *testing.T, key string) {
	t.Helper()
	f.mu.Lock()
	fire := f.fire[key]
	f.mu.Unlock()
	if fire == nil {
		t.Fatalf("%s is not grabbed", key)
	}
	done := make(chan struct{})
	go func() { fire(); close(done) }()
	<-done
}

func TestCompactHotkeys(t *testing.T) {
	c, _, ticket := compactCaller(t)
	keys := &fakeKeys{taken: map[string]bool{"F12": true}, fire: map[string]func(){}}
	var err error
	var msg string
	WithUI(func() {
		c.SetCompact(true)
		err = c.BindHotkeys(keys, map[CallerAction]string{
			ActionCall: "F8", ActionRecall: "F9", ActionPass: "F10", ActionStart: "F11", ActionFinish: "F12"})
		msg = c.msg.Text
	})
	if !model.IsCode(err, model.EConflict) || !strings.Contains(msg, "F12") {
		t.Fatalf("a taken key: error %v, the caller says %q", err, msg)
	}
	if len(keys.fire) != 4 {
		t.Fatalf("grabbed %d keys, want the 4 not taken", len(keys.fire))
	}

	// Start is off while nothing is called: its key does nothing, as its
	// button would.
	keys.press(t, "F11")
	keys.press(t, "F8")
	storeSays(t, c, ticket, 1, model.Called)
	if tk := ticket(2); tk.Status != model.Waiting {
		t.Fatalf("A002 is %s, want still waiting", tk.Status)
	}
	keys.press(t, "F9")
	waitFor(t, "A001 recalled", func() bool { return ticket(1).CallCount == 2 && !c.busy })
	keys.press(t, "F11")
	storeSays(t, c, ticket, 1, model.Serving)
	tap(c.compact.buttons[4]) // finish has no key here: the strip's button
	storeSays(t, c, ticket, 1, model.Done)
	keys.press(t, "F8")
	storeSays(t, c, ticket, 2, model.Called)
	keys.press(t, "F10")
	storeSays(t, c, ticket, 2, model.Passed)
}
