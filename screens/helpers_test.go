package screens

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/screens/offscreen"
)

// testNow is the instant every screen clock shows in tests.
var testNow = time.Date(2026, 3, 2, 10, 30, 0, 0, time.FixedZone("CST", 8*3600))

func TestMain(m *testing.M) {
	if err := SetLanguage("zh"); err != nil {
		panic(err)
	}
	serverTime = frozenClock
	hqNow = frozenHQ // head office's waits as received
	os.Exit(m.Run())
}

// frozenClock stops every screen clock at testNow, so renders repeat;
// runningClock is the program's, for the test of the clock itself.
func frozenClock(time.Duration) time.Time { return testNow }

// frozenHQ stops head office's clock at testNow: its waits stay as received.
func frozenHQ() time.Time { return testNow }

var runningClock = serverTime

// WithUI runs f as the UI goroutine would: no live update runs meanwhile.
func WithUI(f func()) { offscreen.Do(f) }

// newTestWindow starts a test app with the program's theme and a window of
// the given size.
func newTestWindow(t testing.TB, w, h float32) fyne.Window {
	t.Helper()
	a := offscreen.Serialise(test.NewTempApp(t))
	a.Settings().SetTheme(Theme{})
	win := a.NewWindow("test")
	win.Resize(fyne.NewSize(w, h))
	t.Cleanup(win.Close)
	return win
}

// build makes a screen under the UI lock and, when the test ends, stops
// it and waits for its goroutines, so nothing of one test runs into the
// next.
func build[T interface{ Wait() }](t testing.TB, mk func(ctx context.Context) T) T {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var s T
	WithUI(func() { s = mk(ctx) })
	t.Cleanup(func() {
		cancel()
		s.Wait()
	})
	return s
}

// newStore is a fresh SQLite Store seeded with services A, B, V and
// windows 1–4.
func newStore(t testing.TB) *sqlstore.GormStore {
	t.Helper()
	return daotest.SQLite(t)
}

// waitFor waits until cond holds, re-checking after each UI update. The
// deadline only turns a hang into a failure; nothing is timed.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		ch := offscreen.Changed()
		ok := false
		WithUI(func() { ok = cond() })
		if ok {
			return
		}
		select {
		case <-ch:
		case <-time.After(100 * time.Millisecond): // updates made outside onUI (store state)
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func waitLoaded(t testing.TB, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatal("the screen never loaded its first snapshot")
	}
}

func take(t testing.TB, st model.Store, service string, n int) []model.Ticket {
	t.Helper()
	var out []model.Ticket
	for range n {
		tk, err := st.TakeTicket(context.Background(), service, 0, "test")
		if err != nil {
			t.Fatalf("take %s: %v", service, err)
		}
		out = append(out, tk)
	}
	return out
}

// recorder is a PrintQueue and an Announcer that remembers what it got.
type recorder struct {
	mu    sync.Mutex
	got   []model.Ticket
	fault string
}

func (r *recorder) Submit(t model.Ticket, _ model.Position) { r.add(t) }
func (r *recorder) Announce(t model.Ticket)                 { r.add(t) }
func (r *recorder) Fault() string                           { r.mu.Lock(); defer r.mu.Unlock(); return r.fault }

func (r *recorder) add(t model.Ticket) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, t)
}

func (r *recorder) numbers() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, t := range r.got {
		out = append(out, t.Number)
	}
	return out
}

// flaky wraps a Store whose link can be cut: while down every call fails
// as unreachable and open event streams close, as a peer link would.
type flaky struct {
	model.Store
	down  atomic.Bool
	mu    sync.Mutex
	drops []chan struct{}
	takes atomic.Int64
}

var errDown = model.Errorf(model.EUnavailable, "link down")

func (f *flaky) cut(down bool) {
	f.down.Store(down)
	if down {
		f.mu.Lock()
		for _, d := range f.drops {
			close(d)
		}
		f.drops = nil
		f.mu.Unlock()
	}
}

func (f *flaky) Snapshot(ctx context.Context) (model.Snapshot, error) {
	if f.down.Load() {
		return model.Snapshot{}, errDown
	}
	return f.Store.Snapshot(ctx)
}

func (f *flaky) Now(ctx context.Context) (time.Time, error) {
	if f.down.Load() {
		return time.Time{}, errDown
	}
	return f.Store.Now(ctx)
}

func (f *flaky) TakeTicket(ctx context.Context, service string, priority int, source string) (model.Ticket, error) {
	f.takes.Add(1)
	if f.down.Load() {
		return model.Ticket{}, errDown
	}
	return f.Store.TakeTicket(ctx, service, priority, source)
}

func (f *flaky) Watch(ctx context.Context, since int64) (<-chan model.Event, error) {
	if f.down.Load() {
		return nil, errDown
	}
	ctx, cancel := context.WithCancel(ctx)
	in, err := f.Store.Watch(ctx, since)
	if err != nil {
		cancel()
		return nil, err
	}
	drop := make(chan struct{})
	f.mu.Lock()
	f.drops = append(f.drops, drop)
	f.mu.Unlock()
	out := make(chan model.Event)
	go func() {
		defer close(out)
		defer cancel()
		for {
			select {
			case <-drop:
				return
			case e, ok := <-in:
				if !ok {
					return
				}
				select {
				case out <- e:
				case <-drop:
					return
				}
			}
		}
	}()
	return out, nil
}
