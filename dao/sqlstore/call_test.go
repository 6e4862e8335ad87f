package sqlstore_test

import (
	"fmt"
	"sync"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Test 1: 16 windows call concurrently over 2,000 tickets. Each ticket is
// called exactly once, none is left waiting, and the order each window saw
// respects recall pool, priority, then issue order.
func TestConcurrentCallNext(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		const windows, tickets = 16, 2000
		for w := 5; w <= windows; w++ {
			if _, err := s.SaveWindow(bg, model.Window{Number: w, Name: "W", Services: []string{"A", "B", "V"}}); err != nil {
				t.Fatal(err)
			}
		}
		// 8 kiosks take concurrently, as in a morning rush.
		codes := []string{"A", "B", "V", "A"}
		var kw sync.WaitGroup
		for k := 0; k < 8; k++ {
			kw.Add(1)
			go func(k int) {
				defer kw.Done()
				for i := k; i < tickets; i += 8 {
					if _, err := s.TakeTicket(bg, codes[i%len(codes)], 0, "k"); err != nil {
						t.Error(err)
						return
					}
				}
			}(k)
		}
		kw.Wait()
		assertIssueOrderFollowsNumbers(t, s)
		assertServingOrder(t, callUntilEmpty(t, s, windows, tickets))
		c := statusCounts(t, s)
		if c[model.Waiting] != 0 || c[model.Called] != tickets {
			t.Fatalf("database says %v, want all %d called", c, tickets)
		}
		if n := countEvents(t, s); n != int64(2*tickets+windows-4) {
			t.Fatalf("%d events, want %d (take + call per ticket, plus window setup)", n, 2*tickets+windows-4)
		}
	})
}

// callUntilEmpty has windows 1 to windows call at once until each finds
// its queue empty, and returns what each called, in order. Every one of
// the tickets must be called once.
func callUntilEmpty(t *testing.T, s *sqlstore.GormStore, windows, tickets int) [][]model.Ticket {
	t.Helper()
	var mu sync.Mutex
	got := map[int64]int{}
	perWindow := make([][]model.Ticket, windows+1)
	var wg sync.WaitGroup
	errs := make(chan error, windows)
	for w := 1; w <= windows; w++ {
		wg.Go(func() {
			for {
				tk, err := s.CallNext(bg, w, "")
				if model.IsCode(err, model.EQueueEmpty) {
					return
				}
				if err != nil {
					errs <- fmt.Errorf("window %d: %w", w, err)
					return
				}
				mu.Lock()
				got[tk.ID]++
				mu.Unlock()
				perWindow[w] = append(perWindow[w], tk)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("call next: %v", err)
	}
	if len(got) != tickets {
		t.Fatalf("called %d distinct tickets, want %d", len(got), tickets)
	}
	for id, n := range got {
		if n != 1 {
			t.Fatalf("ticket %d called %d times", id, n)
		}
	}
	return perWindow
}

// assertServingOrder: no window's calls go backwards in serving order, so
// a window never got a later ticket before an earlier one that was free
// at the time of its call.
func assertServingOrder(t *testing.T, perWindow [][]model.Ticket) {
	t.Helper()
	for w, seq := range perWindow {
		for i := 1; i < len(seq); i++ {
			if model.ServedBefore(seq[i], seq[i-1]) {
				t.Fatalf("window %d called %s after %s", w, seq[i].Number, seq[i-1].Number)
			}
		}
	}
}

// assertIssueOrderFollowsNumbers: within a service, a later number never
// sorts before an earlier one, however the kiosks' transactions interleaved.
func assertIssueOrderFollowsNumbers(t *testing.T, s *sqlstore.GormStore) {
	t.Helper()
	var rows []struct {
		IssueServiceID int64
		SeqNo          int
		SortKey        int64
	}
	if err := s.DB().Raw("SELECT issue_service_id, seq_no, sort_key FROM ticket ORDER BY issue_service_id, seq_no").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		if a.IssueServiceID == b.IssueServiceID && a.SortKey >= b.SortKey {
			t.Fatalf("service %d: number %d sorts at or after number %d", a.IssueServiceID, a.SeqNo, b.SeqNo)
		}
	}
}
