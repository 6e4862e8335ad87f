package sqlstore_test

import (
	"context"
	"testing"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

var bg = context.Background()

// countEvents is read straight from the log table, not from the Store's own
// bookkeeping.
func countEvents(t *testing.T, s *sqlstore.GormStore) int64 {
	t.Helper()
	var n int64
	if err := s.DB().Raw("SELECT COUNT(*) FROM queue_event").Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

func statusCounts(t *testing.T, s *sqlstore.GormStore) map[model.Status]int {
	t.Helper()
	var rows []struct {
		Status int
		N      int
	}
	if err := s.DB().Raw("SELECT status, COUNT(*) AS n FROM ticket GROUP BY status").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	out := map[model.Status]int{}
	for _, r := range rows {
		out[model.Status(r.Status)] = r.N
	}
	return out
}

func take(t *testing.T, s model.Store, service string, priority int) model.Ticket {
	t.Helper()
	tk, err := s.TakeTicket(bg, service, priority, "test")
	if err != nil {
		t.Fatalf("take %s: %v", service, err)
	}
	return tk
}

// ok fails the test on an error: ok(t)(s.CallNext(...)).
func ok(t *testing.T) func(model.Ticket, error) model.Ticket {
	return func(tk model.Ticket, err error) model.Ticket {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
}

// okAny is ok for results other than tickets: okAny(t, err) after a call.
func okAny(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// openStores opens n Stores on one database, as n PCs would: each with its
// own pool, clock and caches.
func openStores(t *testing.T, dsn string, n int) []*sqlstore.GormStore {
	t.Helper()
	stores := make([]*sqlstore.GormStore, n)
	for i := range stores {
		s, err := sqlstore.Open(bg, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores[i] = s
	}
	return stores
}

// oneSharedWindow leaves the branch one 综合 window (1: A and B) and one
// VIP window (2: V), the others closed: the hall where a ticket of A
// waits behind the B tickets of the same window.
func oneSharedWindow(t *testing.T, s *sqlstore.GormStore) {
	t.Helper()
	for _, w := range []model.Window{{Number: 1, Name: "综合", Services: []string{"A", "B"}}, {Number: 2, Name: "贵宾", Services: []string{"V"}}} {
		if _, err := s.SaveWindow(bg, w); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []int{3, 4} {
		if _, err := s.SetWindowStatus(bg, w, model.WindowClosed); err != nil {
			t.Fatal(err)
		}
	}
}
