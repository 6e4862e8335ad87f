package screens

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"jiaohao/app/demodata"
	"jiaohao/model"
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

// simulator makes the events of a busy hall: each ticket is taken,
// called to one of the windows, served and finished; every tenth is
// passed instead, and its window calls it back later.
type simulator struct {
	version int64
	seq     int
	at      time.Time
	windows int
}

func (s *simulator) event(kind string, from model.Status, t model.Ticket) model.Event {
	s.version++
	s.at = s.at.Add(250 * time.Millisecond)
	tc := t
	return model.Event{Version: s.version, At: s.at, Kind: kind, TicketID: t.ID, Window: t.Window, FromStatus: from, ToStatus: t.Status, Ticket: &tc}
}

// next returns the events of one more customer.
func (s *simulator) next() []model.Event {
	s.seq++
	svc := "A"
	if s.seq%3 == 0 {
		svc = "B"
	}
	now := s.at
	t := model.Ticket{ID: int64(s.seq), Number: fmt.Sprintf("%s%03d", svc, s.seq%1000), Service: svc, IssueService: svc,
		BusinessDate: "2026-03-02", SeqNo: s.seq, Priority: 5, Status: model.Waiting, Lane: model.LaneNormal, IssuedAt: now}
	evs := []model.Event{s.event(model.EvTake, 0, t)}
	t.Status, t.Window, t.CallCount, t.CalledAt = model.Called, s.seq%s.windows+1, 1, &now
	evs = append(evs, s.event(model.EvCall, model.Waiting, t))
	if s.seq%10 == 0 {
		t.Status = model.Passed
		evs = append(evs, s.event(model.EvPass, model.Called, t))
		t.Status, t.CallCount = model.Called, 2
		evs = append(evs, s.event(model.EvUndoPass, model.Passed, t))
	}
	t.Status = model.Serving
	evs = append(evs, s.event(model.EvStart, model.Called, t))
	t.Status = model.Done
	return append(evs, s.event(model.EvFinish, model.Serving, t))
}

// stillHall builds a hall on the demo morning and stops its follower, so
// a benchmark can feed it events itself.
func stillHall(tb testing.TB) (*Hall, *board) {
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
	return h, &board{Snapshot: snap}
}

// feed applies events one by one, the way the follower does when they
// arrive one at a time (its worst case: no batching).
func feed(h *Hall, b *board, evs []model.Event) {
	WithUI(func() {
		for _, ev := range evs {
			b.apply(ev)
			h.show(update{snap: b.clone(), events: []model.Event{ev}})
		}
	})
}

func BenchmarkHallApply1000Events(b *testing.B) {
	h, brd := stillHall(b)
	sim := &simulator{version: brd.Version, seq: 1000, at: testNow, windows: 8}
	for b.Loop() {
		b.StopTimer()
		var evs []model.Event
		for len(evs) < 1000 {
			evs = append(evs, sim.next()...)
		}
		evs = evs[:1000]
		b.StartTimer()
		feed(h, brd, evs)
		b.StopTimer()
		sim.version = brd.Version // the cut may end mid-customer
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
	sim := &simulator{version: brd.Version, seq: 1000, at: testNow, windows: 8}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	var marks []uint64
	for minute := 1; minute <= 60; minute++ {
		for range 60 { // one customer called per second
			feed(h, brd, sim.next())
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
	WithUI(func() { shown = h.rows[0].num.Text })
	if shown != "" && h.rows[0].box.Visible() {
		t.Fatalf("finished tickets still shown as in progress: %q", shown)
	}
}
