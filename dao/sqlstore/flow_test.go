package sqlstore_test

import (
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Serving order on one window: recall pool, then priority, then issue
// order, across the services the window serves.
func TestServingOrder(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		clearOfDayEnd(t, 15*time.Minute, s)
		a1 := take(t, s, "A", 0)
		b1 := take(t, s, "B", 0)
		a2 := take(t, s, "A", 0)
		v1 := take(t, s, "V", 0)
		late := ok(t)(s.CallNext(bg, 1, "")) // V001: priority 1
		if late.ID != v1.ID {
			t.Fatalf("first call %s, want the VIP %s", late.Number, v1.Number)
		}
		s.ShiftClock(121 * time.Second)
		if _, err := s.Sweep(bg); err != nil { // V001 goes to the recall pool
			t.Fatal(err)
		}
		vip := take(t, s, "V", 0)
		var order []string
		for {
			tk, err := s.CallNext(bg, 2, "")
			if model.IsCode(err, model.EQueueEmpty) {
				break
			}
			order = append(order, ok(t)(tk, err).Number)
		}
		want := []string{v1.Number, vip.Number, a1.Number, b1.Number, a2.Number}
		if len(order) != len(want) {
			t.Fatalf("order %v, want %v", order, want)
		}
		for i := range want {
			if order[i] != want[i] {
				t.Fatalf("order %v, want %v", order, want)
			}
		}
	})
}

// call -> start -> finish and call -> pass -> undo-pass, with the window's
// current ticket kept in step and one event per step.
func TestCallerFlows(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		a := take(t, s, "A", 0)
		b := take(t, s, "A", 0)
		c := ok(t)(s.CallNext(bg, 1, ""))
		c = ok(t)(s.Recall(bg, c.ID, 1))
		if c.CallCount != 2 || c.Window != 1 {
			t.Fatalf("recall: %+v", c)
		}
		c = ok(t)(s.StartServing(bg, a.ID, 1))
		c = ok(t)(s.Finish(bg, a.ID, 1))
		if c.Status != model.Done || c.FinishedAt == nil || c.ServeStartAt == nil {
			t.Fatalf("finish: %+v", c)
		}
		if cur := currentOf(t, s, 1); cur != 0 {
			t.Fatalf("window 1 still holds %d after finish", cur)
		}
		p := ok(t)(s.CallNext(bg, 1, ""))
		p = ok(t)(s.Pass(bg, p.ID, 1))
		if p.ID != b.ID || p.Status != model.Passed || p.Window != 1 || currentOf(t, s, 1) != 0 {
			t.Fatalf("pass: %+v", p)
		}
		p = ok(t)(s.UndoPass(bg, p.ID, 1))
		if p.Status != model.Called || p.CallCount != 2 || currentOf(t, s, 1) != p.ID {
			t.Fatalf("undo-pass: %+v", p)
		}
		// Transfer to window 2 keeps the status, moves the hold.
		p = ok(t)(s.Transfer(bg, p.ID, 1, model.TransferTarget{Window: 2}))
		if p.Status != model.Called || p.Window != 2 || currentOf(t, s, 1) != 0 || currentOf(t, s, 2) != p.ID {
			t.Fatalf("transfer to window: %+v", p)
		}
		// Transfer to service B keeps the number and waits there.
		p = ok(t)(s.Transfer(bg, p.ID, 2, model.TransferTarget{Service: "B"}))
		if p.Status != model.Waiting || p.Service != "B" || p.Number != b.Number || p.IssueService != "A" {
			t.Fatalf("transfer to service: %+v", p)
		}
		again := ok(t)(s.CallNext(bg, 3, "B"))
		if again.ID != b.ID {
			t.Fatalf("B queue gave %s, want the transferred %s", again.Number, b.Number)
		}
		x := ok(t)(s.Cancel(bg, again.ID, 3))
		if x.Status != model.Cancelled || currentOf(t, s, 3) != 0 {
			t.Fatalf("cancel: %+v", x)
		}
		// take a,b + call, recall, start, finish, call, pass, undo, transfer x2, call, cancel
		if n := countEvents(t, s); n != 13 {
			t.Fatalf("%d events, want 13", n)
		}
	})
}

// Requeue puts a passed ticket exactly requeue_offset places after the
// head of its service, keeping its number.
func TestRequeuePlacement(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		p := take(t, s, "A", 0)
		var rest []model.Ticket
		for i := 0; i < 6; i++ {
			rest = append(rest, take(t, s, "A", 0))
		}
		ok(t)(s.CallNext(bg, 1, ""))
		ok(t)(s.Pass(bg, p.ID, 1))
		r := ok(t)(s.Requeue(bg, p.ID, 1))
		if r.Status != model.Waiting || r.Number != p.Number || r.Window != 0 {
			t.Fatalf("requeue: %+v", r)
		}
		pos, err := s.Position(bg, r.ID)
		if err != nil || pos.Ahead != 3 {
			t.Fatalf("requeued ticket has %d ahead (%v), want 3", pos.Ahead, err)
		}
		var order []int64
		for i := 0; i < 5; i++ {
			order = append(order, ok(t)(s.CallNext(bg, 2, "")).ID)
		}
		want := []int64{rest[0].ID, rest[1].ID, rest[2].ID, p.ID, rest[3].ID}
		for i := range want {
			if order[i] != want[i] {
				t.Fatalf("call order %v, want %v", order, want)
			}
		}
	})
}

func TestPositionAndETA(t *testing.T) {
	s := daotest.SQLite(t)
	var ts []model.Ticket
	for i := 0; i < 5; i++ {
		ts = append(ts, take(t, s, "A", 0))
	}
	pos, err := s.Position(bg, ts[4].ID)
	if err != nil {
		t.Fatal(err)
	}
	// default 300 s per customer, 4 open windows serve A
	if pos.Ahead != 4 || pos.ETASeconds != 300*4/4 {
		t.Fatalf("position %+v", pos)
	}
}

func currentOf(t *testing.T, s *sqlstore.GormStore, window int) int64 {
	t.Helper()
	ws, err := s.Windows(bg)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if w.Number == window {
			return w.CurrentID
		}
	}
	t.Fatalf("no window %d", window)
	return 0
}

// The store itself refuses a window cancelling a waiting ticket, so the
// rule holds for every adapter (desktop callers on a shared database as
// well as the peer server); the manager, window 0, may.
func TestWindowCannotCancelWaiting(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		w := take(t, s, "A", 0)
		before := countEvents(t, s)
		if _, err := s.Cancel(bg, w.ID, 1); !model.IsCode(err, model.EForbidden) {
			t.Fatalf("window 1 cancelling a waiting ticket: %v", err)
		}
		if n := countEvents(t, s); n != before {
			t.Fatalf("a refused cancel wrote %d events", n-before)
		}
		if x := ok(t)(s.Cancel(bg, w.ID, 0)); x.Status != model.Cancelled {
			t.Fatalf("manager cancel: %+v", x)
		}
	})
}
