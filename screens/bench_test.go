package screens

import (
	"context"
	"runtime"
	"testing"

	"jiaohao/app/demodata"
	"jiaohao/model"
	"jiaohao/model/modeltest"
)

// benchBuild measures building one role's whole UI on the demo morning,
// up to its first snapshot on screen.
func benchBuild[T interface {
	Loaded() <-chan struct{}
	Wait()
}](b *testing.B, mk func(ctx context.Context, st model.Store) T) {
	st := newStore(b)
	if err := demodata.Morning(context.Background(), st); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		var s T
		WithUI(func() { s = mk(ctx, st) })
		<-s.Loaded()
		cancel()
		s.Wait()
	}
}

func BenchmarkBuildCaller(b *testing.B) {
	w := newTestWindow(b, 560, 640)
	benchBuild(b, func(ctx context.Context, st model.Store) *Caller { return NewCaller(ctx, w, st, 2, &recorder{}) })
}

func BenchmarkBuildHall(b *testing.B) {
	w := newTestWindow(b, 1280, 720)
	benchBuild(b, func(ctx context.Context, st model.Store) *Hall { return NewHall(ctx, w, st, &recorder{}) })
}

func BenchmarkBuildKiosk(b *testing.B) {
	w := newTestWindow(b, 1280, 720)
	benchBuild(b, func(ctx context.Context, st model.Store) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
}

func BenchmarkBuildManager(b *testing.B) {
	w := newTestWindow(b, 1024, 700)
	benchBuild(b, func(ctx context.Context, st model.Store) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
}

// stillHall builds a hall on the demo morning and stops its follower, so
// a benchmark can feed it events itself.
func stillHall(tb testing.TB) (*Hall, *model.Snapshot) {
	st := newStore(tb)
	if err := demodata.Morning(context.Background(), st); err != nil {
		tb.Fatal(err)
	}
	w := newTestWindow(tb, 1920, 1080)
	ctx, cancel := context.WithCancel(context.Background())
	var h *Hall
	WithUI(func() { h = NewHall(ctx, w, st, &recorder{}) })
	<-h.Loaded()
	cancel()
	h.Wait()
	snap, err := st.Snapshot(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return h, &snap
}

// feed applies events one by one, the way the follower does when they
// arrive one at a time (its worst case: no batching).
func feed(h *Hall, s *model.Snapshot, evs []model.Event) {
	WithUI(func() {
		for _, ev := range evs {
			s.Apply(ev)
			h.show(model.Change{Snapshot: s.Clone(), Events: []model.Event{ev}})
		}
	})
}

func BenchmarkHallApply1000Events(b *testing.B) {
	h, brd := stillHall(b)
	sim := &modeltest.Simulator{Version: brd.Version, Seq: 1000, At: testNow, Windows: 8}
	for b.Loop() {
		b.StopTimer()
		var evs []model.Event
		for len(evs) < 1000 {
			evs = append(evs, sim.Next()...)
		}
		evs = evs[:1000]
		b.StartTimer()
		feed(h, brd, evs)
		b.StopTimer()
		sim.Version = brd.Version // the cut may end mid-customer
		b.StartTimer()
	}
}

// An hour of a busy hall (a call every second over 8 windows, about
// 16,000 events) leaves the hall screen's memory flat and well under
// 150 MB: its lists are bounded and its widgets are a fixed pool.
func TestHallMemoryOverAnHour(t *testing.T) {
	if testing.Short() {
		t.Skip("an hour of events takes a while; run without -short")
	}
	h, brd := stillHall(t)
	sim := &modeltest.Simulator{Version: brd.Version, Seq: 1000, At: testNow, Windows: 8}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	var marks []uint64
	for minute := 1; minute <= 60; minute++ {
		for range 60 { // one customer called per second
			feed(h, brd, sim.Next())
		}
		if minute%10 == 0 {
			marks = append(marks, heap())
		}
	}
	const mb = 1 << 20
	t.Logf("hall heap every 10 simulated minutes (MB): %.1f %.1f %.1f %.1f %.1f %.1f; %d events",
		float64(marks[0])/mb, float64(marks[1])/mb, float64(marks[2])/mb, float64(marks[3])/mb, float64(marks[4])/mb, float64(marks[5])/mb, brd.Version)
	if last := marks[len(marks)-1]; last > 150*mb {
		t.Fatalf("heap %.1f MB after an hour, want under 150 MB", float64(last)/mb)
	}
	if growth := int64(marks[5]) - int64(marks[0]); growth > 10*mb {
		t.Fatalf("heap grew %.1f MB between minute 10 and minute 60: not flat", float64(growth)/mb)
	}
	var shown string
	WithUI(func() { shown = h.list.rows[0].num.Text })
	if shown != "" && h.list.rows[0].box.Visible() {
		t.Fatalf("finished tickets still shown as in progress: %q", shown)
	}
}
