package sqlstore_test

import (
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A window never has two customers: it cannot call next, take a passed
// ticket back or receive a transfer while it is serving one. A called
// ticket does not block the next call (seed 002 §5.1 calls ten in a row).
func TestBusyWindowRefuses(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		for i := 0; i < 5; i++ {
			take(t, s, "A", 0)
		}
		a := ok(t)(s.CallNext(bg, 1, ""))
		b := ok(t)(s.CallNext(bg, 1, "")) // a stays called; the sweeper will pool it
		ok(t)(s.StartServing(bg, b.ID, 1))
		before := countEvents(t, s)
		if _, err := s.CallNext(bg, 1, ""); !model.IsCode(err, model.EConflict) {
			t.Fatalf("call next while serving: %v", err)
		}
		c := ok(t)(s.CallNext(bg, 2, ""))
		if _, err := s.Transfer(bg, c.ID, 2, model.TransferTarget{Window: 1}); !model.IsCode(err, model.EConflict) {
			t.Fatalf("transfer into a serving window: %v", err)
		}
		ok(t)(s.Pass(bg, a.ID, 1))
		if _, err := s.UndoPass(bg, a.ID, 1); !model.IsCode(err, model.EConflict) {
			t.Fatalf("undo-pass while serving: %v", err)
		}
		if n := countEvents(t, s); n != before+2 {
			t.Fatalf("%d events, want %d: refusals must log nothing", n, before+2)
		}
		ok(t)(s.Finish(bg, b.ID, 1))
		ok(t)(s.UndoPass(bg, a.ID, 1))
		if got := currentOf(t, s, 1); got != a.ID {
			t.Fatalf("window 1 holds %d, want %d", got, a.ID)
		}
	})
}

// A ticket left serving on an earlier day does not block the window today.
func TestYesterdaysTicketDoesNotBlock(t *testing.T) {
	s := daotest.SQLite(t)
	take(t, s, "A", 0)
	x := ok(t)(s.CallNext(bg, 1, ""))
	ok(t)(s.StartServing(bg, x.ID, 1))
	s.ShiftClock(24 * time.Hour)
	take(t, s, "A", 0)
	if _, err := s.CallNext(bg, 1, ""); err != nil {
		t.Fatalf("yesterday's ticket blocked today's call: %v", err)
	}
	snap, _ := s.Snapshot(bg)
	for _, c := range snap.RecentCalls {
		if c.ID == x.ID {
			t.Fatal("yesterday's call shown among today's recent calls")
		}
	}
}

// A long Chinese terminal name is cut by characters for the event log.
func TestLongActorName(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		ctx := model.WithActor(bg, strings.Repeat("营业厅一号取号机", 10))
		if _, err := s.TakeTicket(ctx, "A", 0, "kiosk"); err != nil {
			t.Fatalf("take with a long actor name: %v", err)
		}
		evs, _ := s.EventsSince(bg, 0, 10)
		if len(evs) != 1 || len([]rune(evs[0].Actor)) != 60 {
			t.Fatalf("actor %q", evs[0].Actor)
		}
	})
}
