package sqlstore_test

import (
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Test 5: three sweepers at once (three Stores, like three PCs, on one
// database): each timed-out ticket moves exactly once, with one event.
func TestConcurrentSweepers(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		stores := openStores(t, dsn, 3)
		s := stores[0]
		clearOfDayEnd(t, 15*time.Minute, stores...)
		const n = 60
		for i := 0; i < n; i++ {
			take(t, s, "A", 0)
		}
		var firstCalls []model.Ticket
		for i := 0; i < n; i++ {
			firstCalls = append(firstCalls, ok(t)(s.CallNext(bg, i%4+1, "")))
		}
		// Half of them are called a second time (recall), so their next
		// timeout passes them instead of pooling them.
		for _, tk := range firstCalls[:n/2] {
			ok(t)(s.Recall(bg, tk.ID, tk.Window))
		}
		before := countEvents(t, s)
		for _, st := range stores {
			st.ShiftClock(121 * time.Second)
		}
		results := make([]model.SweepResult, len(stores))
		var wg sync.WaitGroup
		for i, st := range stores {
			wg.Add(1)
			go func(i int, st *sqlstore.GormStore) {
				defer wg.Done()
				r, err := st.Sweep(bg)
				if err != nil {
					t.Error(err)
				}
				results[i] = r
			}(i, st)
		}
		wg.Wait()
		var recalled, passed int
		for _, r := range results {
			recalled += r.Recalled
			passed += r.Passed
		}
		if recalled != n/2 || passed != n/2 {
			t.Fatalf("sweepers moved %d to the recall pool and passed %d, want %d and %d (%+v)", recalled, passed, n/2, n/2, results)
		}
		c := statusCounts(t, s)
		if c[model.Waiting] != n/2 || c[model.Passed] != n/2 || c[model.Called] != 0 {
			t.Fatalf("database says %v", c)
		}
		var timeouts int64
		s.DB().Raw("SELECT COUNT(*) FROM queue_event WHERE kind = ?", model.EvTimeout).Scan(&timeouts)
		var perTicket int64
		s.DB().Raw("SELECT COUNT(*) FROM (SELECT ticket_id FROM queue_event WHERE kind = ? GROUP BY ticket_id HAVING COUNT(*) > 1) AS d", model.EvTimeout).Scan(&perTicket)
		// Besides the timeouts: the windows paused, and the alerts raised
		// (half the tickets passed is over the passed ratio).
		if timeouts != n || perTicket != 0 || countEvents(t, s) != before+n+int64(pausedWindows(results)+alertsRaised(results)) {
			t.Fatalf("%d timeout events (%d tickets with more than one), want %d", timeouts, perTicket, n)
		}
		// The pooled ones are served before anything new.
		fresh := take(t, s, "A", 1)
		_, err := s.SetWindowStatus(bg, 1, model.WindowOpen) // the idle sweep may have paused it
		okAny(t, err)
		got := ok(t)(s.CallNext(bg, 1, ""))
		if got.ID == fresh.ID || got.CallCount != 2 {
			t.Fatalf("recall pool not first: got %s (calls %d)", got.Number, got.CallCount)
		}
	})
}

func alertsRaised(rs []model.SweepResult) int {
	n := 0
	for _, r := range rs {
		n += r.Alerts
	}
	return n
}

func pausedWindows(rs []model.SweepResult) int {
	n := 0
	for _, r := range rs {
		n += r.Paused
	}
	return n
}

// Windows idle past idle_window_timeout_s with no ticket are paused once;
// a window holding a ticket is left alone; a paused window cannot call.
func TestIdleWindowsPaused(t *testing.T) {
	s := daotest.SQLite(t)
	clearOfDayEnd(t, 15*time.Minute, s)
	take(t, s, "A", 0)
	held := ok(t)(s.CallNext(bg, 2, ""))
	s.ShiftClock(301 * time.Second)
	if err := s.SetSetting(bg, "call_timeout_s", "3600"); err != nil {
		t.Fatal(err)
	}
	r, err := s.Sweep(bg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Paused != 3 {
		t.Fatalf("paused %d windows, want 3 (window 2 holds %s)", r.Paused, held.Number)
	}
	again, _ := s.Sweep(bg)
	if again.Paused != 0 {
		t.Fatalf("second sweep paused %d again", again.Paused)
	}
	take(t, s, "A", 0)
	if _, err := s.CallNext(bg, 1, ""); !model.IsCode(err, model.EWindowNotOpen) {
		t.Fatalf("paused window called: %v", err)
	}
}
