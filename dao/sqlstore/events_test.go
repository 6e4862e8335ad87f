package sqlstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Test 3: readers polling EventsSince while 16 writers work see every
// version exactly once, in order, and end equal to the log. On MariaDB a
// statement's read view can miss a transaction that committed just before
// a later one it does see (its list of running transactions is gathered
// while they commit), so a version can be missing from one read: the
// readers poll without pause so that such a read happens here.
func TestEventsSinceGapFreeUnderLoad(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		const writers, each, readers = 16, 150, 6
		done := make(chan struct{})
		seen := make([][]int64, readers)
		readerErrs := make(chan error, readers)
		for r := range readers {
			go func() {
				var last int64
				finishing := false
				for {
					evs, err := s.EventsSince(bg, last, 100)
					if err != nil {
						readerErrs <- err
						return
					}
					for _, e := range evs {
						seen[r] = append(seen[r], e.Version)
						last = e.Version
					}
					if len(evs) == 0 && finishing {
						readerErrs <- nil
						return
					}
					select {
					case <-done:
						finishing = true
					default:
					}
				}
			}()
		}
		var wg sync.WaitGroup
		for w := 1; w <= writers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				window := w%4 + 1
				for i := 0; i < each; i++ {
					if w%2 == 0 {
						if _, err := s.TakeTicket(bg, []string{"A", "B"}[i%2], 0, "k"); err != nil {
							t.Error(err)
							return
						}
						continue
					}
					if _, err := s.CallNext(bg, window, ""); err != nil && !model.IsCode(err, model.EQueueEmpty) {
						t.Error(err)
						return
					}
				}
			}(w)
		}
		wg.Wait()
		close(done)
		for range readers {
			if err := <-readerErrs; err != nil {
				t.Fatal(err)
			}
		}
		total := countEvents(t, s)
		for r, vs := range seen {
			for i, v := range vs {
				if v != int64(i+1) {
					t.Fatalf("reader %d saw version %d at position %d: missed or repeated", r+1, v, i)
				}
			}
			if int64(len(vs)) != total {
				t.Fatalf("reader %d saw %d events, log has %d", r+1, len(vs), total)
			}
		}
		var branchVersion int64
		s.DB().Raw("SELECT version FROM branch WHERE id = 1").Scan(&branchVersion)
		if branchVersion != total {
			t.Fatalf("branch version %d, log has %d", branchVersion, total)
		}
	})
}

// Watch delivers the same stream, live, and wakes at once for local writes.
func TestWatchFollowsLog(t *testing.T) {
	s := daotest.SQLite(t)
	ctx, cancel := context.WithTimeout(bg, 30*time.Second)
	defer cancel()
	take(t, s, "A", 0)
	ch, err := s.Watch(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	take(t, s, "B", 0)
	called := ok(t)(s.CallNext(bg, 2, ""))
	var got []model.Event
	for len(got) < 3 {
		e, ok := <-ch
		if !ok {
			t.Fatal("watch closed early")
		}
		got = append(got, e)
	}
	if got[0].Version != 1 || got[2].Version != 3 || got[2].Kind != model.EvCall || got[2].Ticket.ID != called.ID || got[2].Ticket.Window != 2 {
		t.Fatalf("events %+v", got)
	}
	// A watcher that claims to be ahead of the log is told to resync.
	ahead, err := s.Watch(ctx, 99)
	if err != nil {
		t.Fatal(err)
	}
	if e := <-ahead; e.Kind != model.EvResync || e.Version != 3 {
		t.Fatalf("ahead watcher got %+v, want resync at 3", e)
	}
}

// The snapshot and events agree: state at version V plus events > V equals
// the state after them.
func TestSnapshotCarriesVersionAndState(t *testing.T) {
	s := daotest.SQLite(t)
	a := take(t, s, "A", 0)
	take(t, s, "A", 0)
	take(t, s, "V", 0)
	ok(t)(s.CallNext(bg, 1, "A"))
	p := ok(t)(s.CallNext(bg, 2, "A"))
	ok(t)(s.Pass(bg, p.ID, 2))
	snap, err := s.Snapshot(bg)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Version != countEvents(t, s) || snap.Branch == "" || snap.BusinessDate != a.BusinessDate {
		t.Fatalf("snapshot header %+v", snap)
	}
	waiting := map[string]int{}
	for _, c := range snap.Services {
		waiting[c.Code] = c.Waiting
	}
	if waiting["A"] != 0 || waiting["V"] != 1 || waiting["B"] != 0 {
		t.Fatalf("waiting %v", waiting)
	}
	if a := snap.Services[0]; a.Code != "A" || a.Taken != 2 || a.Passed != 1 || snap.TimeZone != "Asia/Shanghai" {
		t.Fatalf("day counts %+v zone %q", a, snap.TimeZone)
	}
	if snap.Windows[0].Current == nil || snap.Windows[0].Current.ID != a.ID || snap.Windows[1].Current != nil {
		t.Fatalf("windows %+v", snap.Windows[:2])
	}
	if len(snap.Passed) != 1 || snap.Passed[0].ID != p.ID || len(snap.RecentCalls) != 2 || snap.RecentCalls[0].ID != p.ID {
		t.Fatalf("passed %v recent %v", snap.Passed, snap.RecentCalls)
	}
}

// Watchers may start while other goroutines write (the race detector
// checks the hub's hand-over).
func TestWatchStartsDuringWrites(t *testing.T) {
	s := daotest.SQLite(t)
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 20; i++ {
			take(t, s, "A", 0)
		}
	}()
	var got []model.Event
	go func() {
		defer wg.Done()
		ch, err := s.Watch(ctx, 0)
		if err != nil {
			t.Error(err)
			return
		}
		for e := range ch {
			got = append(got, e)
			if e.Version == 20 {
				return
			}
		}
	}()
	wg.Wait()
	for i, e := range got {
		if e.Version != int64(i+1) {
			t.Fatalf("watcher saw %d at %d", e.Version, i)
		}
	}
	if len(got) != 20 {
		t.Fatalf("watcher saw %d events, want 20", len(got))
	}
}
