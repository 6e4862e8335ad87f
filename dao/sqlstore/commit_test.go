package sqlstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

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
		dsn = onePool(dsn)
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

// onePool is dsn with a pool of one connection (SQLite has only one).
func onePool(dsn string) string {
	if strings.HasPrefix(dsn, "sqlite:") {
		return dsn
	}
	return dsn + map[bool]string{true: "&", false: "?"}[strings.Contains(dsn, "?")] + "pool=1"
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

// A take that gives up while another transaction holds the branch, at
// its caller's deadline or because its request was cancelled (a kiosk's
// connection dropped), leaves no number behind once that transaction
// ends: it is not committed later, after the kiosk was told it failed (on
// PostgreSQL its COMMIT is already with the server: the statement checks
// its time once it holds the branch's row, and a cancelled request asks
// the server to cancel it).
//
// "read timeout": on MariaDB, whose COMMIT also goes with the last
// statements, a take with no deadline of its own whose driver stops
// waiting for the answer (its read timeout, here 1 s).
func TestGivenUpTakeDoesNotCommitLater(t *testing.T) {
	for _, how := range []string{"deadline", "cancel", "read timeout"} {
		t.Run(how, func(t *testing.T) {
			daotest.EachDSN(t, func(t *testing.T, dsn string) {
				takeDSN := dsn
				if how == "read timeout" {
					if !strings.HasPrefix(dsn, "mysql:") { // the others wait for the answer before COMMIT
						return
					}
					takeDSN += map[bool]string{true: "&", false: "?"}[strings.Contains(dsn, "?")] + "readTimeout=1s"
				}
				s, other := openStores(t, takeDSN, 1)[0], openStores(t, dsn, 1)[0]
				first := take(t, s, "A", 0)
				v0, err := s.Version(bg)
				okAny(t, err)
				hold := other.DB().Begin()
				okAny(t, hold.Error)
				defer hold.Rollback()
				okAny(t, hold.Exec("UPDATE branch SET name = name WHERE id = ?", s.BranchID()).Error)
				ctx, cancel := context.WithTimeout(bg, time.Second)
				switch how {
				case "cancel":
					ctx, cancel = context.WithCancel(bg)
					time.AfterFunc(time.Second, cancel)
				case "read timeout":
					ctx, cancel = context.WithCancel(bg)
				}
				_, err = s.TakeTicket(ctx, "A", 0, "kiosk")
				cancel()
				if err == nil {
					t.Fatal("a take went through while another transaction held the branch")
				}
				okAny(t, hold.Rollback().Error)
				// What a stray transaction would do, it does within this time.
				time.Sleep(time.Second)
				if v, err := s.Version(bg); err != nil || v != v0 {
					t.Fatalf("the branch version is %d (%v), want %d: the given-up take committed", v, err, v0)
				}
				next := take(t, s, "A", 0)
				if next.SeqNo != first.SeqNo+1 {
					t.Fatalf("the number after the given-up take is %s, want the one right after %s", next.Number, first.Number)
				}
			})
		})
	}
}

// A take that gets the branch late in its request, past the time a write
// may still commit but before the request ends, is a slow answer, not a
// database that is down. Where the commit travels with the last statement
// (PostgreSQL, MariaDB), that statement finds itself past its time once it
// holds the branch and rolls back, by the database's clock: the caller
// could not be sure to hear of a commit made then.
func TestLateTakeIsNotAnOutage(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		stores := openStores(t, dsn, 2)
		s, other := stores[0], stores[1]
		take(t, s, "A", 0)
		v0, err := s.Version(bg)
		okAny(t, err)
		hold := other.DB().Begin()
		okAny(t, hold.Error)
		okAny(t, hold.Exec("UPDATE branch SET name = name WHERE id = ?", s.BranchID()).Error)
		// One goroutine ends the holding transaction: the timer's, or
		// this one if the timer never fired.
		released := make(chan struct{})
		timer := time.AfterFunc(1800*time.Millisecond, func() { hold.Rollback(); close(released) })
		defer func() {
			if timer.Stop() {
				hold.Rollback()
			} else {
				<-released
			}
		}()
		ctx, cancel := context.WithTimeout(bg, 2*time.Second)
		defer cancel()
		_, err = s.TakeTicket(ctx, "A", 0, "kiosk")
		if s.Down() {
			t.Fatalf("a take held up by a lock (%v) marked the database down", err)
		}
		if strings.HasPrefix(dsn, "sqlite:") { // its COMMIT is a statement of its own
			return
		}
		if err == nil {
			t.Fatal("a take that got the branch past its time committed")
		}
		if !model.IsCode(err, model.EUnavailable) {
			t.Fatalf("the late take failed with %v, want the database's slow answer", err)
		}
		<-released
		if v, err := s.Version(bg); err != nil || v != v0 {
			t.Fatalf("the branch version is %d (%v), want %d: the late take committed", v, err, v0)
		}
	})
}

// The time a write may take is measured on the database's own clock: a
// shifted demo clock does not make every write late.
func TestShiftedClockWritesInTime(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		take(t, s, "A", 0)
		for _, d := range []time.Duration{-time.Hour, time.Hour} {
			s.ShiftClock(d)
			ctx, cancel := context.WithTimeout(bg, 5*time.Second)
			_, err := s.TakeTicket(ctx, "A", 0, "kiosk")
			cancel()
			s.ShiftClock(-d)
			if err != nil {
				t.Fatalf("a take with 5 s to go after shifting the clock by %v: %v", d, err)
			}
		}
	})
}

// Whatever a write's first statement is, it runs inside the write's
// transaction, and a failed write leaves no transaction open: the window
// a failed write made hold a ticket holds none, for this Store's next
// write on its one connection and for another Store, while a write of
// the same shape that commits is seen by both.
func TestFirstStatementIsInTheTransaction(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		dsn = onePool(dsn)
		s, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		defer s.Close()
		other, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		defer other.Close()
		tk := take(t, s, "A", 0)
		for _, first := range []string{"read", "query", "row", "write"} {
			if err := s.FailAfterFirst(bg, 1, tk.ID, first, false); err == nil {
				t.Fatalf("first %s: the failing write reported success", first)
			}
			// A take on the same connection would commit a transaction
			// left open, with the failed write in it.
			take(t, s, "A", 0)
			assertHeld(t, s, 1, "")
			assertHeld(t, other, 1, "")
		}
		for _, first := range []string{"read", "write"} {
			okAny(t, s.FailAfterFirst(bg, 2, tk.ID, first, true))
			assertHeld(t, other, 2, tk.Number)
			okAny(t, s.FailAfterFirst(bg, 2, 0, first, true))
		}
	})
}
