package sqlstore_test

import (
	"context"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A lost race found at the very end of a write, in the statement that
// carries the event (and on PostgreSQL the commit with it), leaves
// nothing behind: no version taken, no event, no window holding the
// ticket, and the connection works for the next write. With two events
// the first goes out before the commit and the second with it.
func TestLostRaceAtCommitLeavesNothing(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		tk := take(t, s, "A", 0)
		for _, events := range []int{1, 2} {
			v0, err := s.Version(bg)
			okAny(t, err)
			n0 := countEvents(t, s)
			lost, err := s.LoseRaceAtCommit(bg, 1, tk.ID, events)
			if !lost {
				t.Fatalf("%d events: the write ended with %v, want a lost race", events, err)
			}
			v1, err := s.Version(bg)
			okAny(t, err)
			if v1 != v0 {
				t.Fatalf("%d events: the branch version moved from %d to %d", events, v0, v1)
			}
			if n := countEvents(t, s); n != n0 {
				t.Fatalf("%d events: %d events logged, want %d", events, n, n0)
			}
			assertHeld(t, s, 1, "")
			got := ok(t)(s.Ticket(bg, tk.ID))
			if got.Status != model.Waiting {
				t.Fatalf("%d events: the ticket is %v, want waiting", events, got.Status)
			}
		}
		called := ok(t)(s.CallNext(bg, 1, ""))
		if called.ID != tk.ID {
			t.Fatalf("window 1 called %s, want %s", called.Number, tk.Number)
		}
		assertHeld(t, s, 1, tk.Number)
	})
}

// A write whose request is cancelled before it commits leaves nothing
// behind, and the pool's one connection serves the next write outside
// the dead transaction (on a server, pool=1 makes it the same slot).
func TestCancelledWriteLeavesNoOpenTransaction(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		if !strings.HasPrefix(dsn, "sqlite:") {
			dsn += map[bool]string{true: "&", false: "?"}[strings.Contains(dsn, "?")] + "pool=1"
		}
		s, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		defer s.Close()
		tk := take(t, s, "A", 0)
		for range 3 {
			if err := s.CancelMidWrite(1, tk.ID); err == nil {
				t.Fatal("a cancelled write committed")
			}
			assertHeld(t, s, 1, "")
		}
		called := ok(t)(s.CallNext(context.Background(), 1, ""))
		if called.ID != tk.ID {
			t.Fatalf("window 1 called %s, want %s", called.Number, tk.Number)
		}
		// A second Store sees the call: it was committed, not left in a
		// transaction the first one still holds open.
		other, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		defer other.Close()
		assertHeld(t, other, 1, tk.Number)
	})
}

// assertHeld checks the ticket number window shows ("" for none).
func assertHeld(t *testing.T, s *sqlstore.GormStore, window int, want string) {
	t.Helper()
	snap, err := s.Snapshot(bg)
	okAny(t, err)
	for _, w := range snap.Windows {
		if w.Window.Number != window {
			continue
		}
		got := ""
		if w.Current != nil {
			got = w.Current.Number
		}
		if got != want {
			t.Fatalf("window %d holds %q, want %q", window, got, want)
		}
		return
	}
	t.Fatalf("no window %d in the snapshot", window)
}
