package sqlstore_test

import (
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Positions answers for many tickets what Position answers for each: the
// recall pool, VIPs, a requeued ticket and two services, with a service
// time measured and one window paused.
func TestPositionsMatchPosition(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		clearOfDayEnd(t, 15*time.Minute, s)
		var ids []int64
		for i := 0; i < 6; i++ {
			ids = append(ids, take(t, s, "A", 0).ID, take(t, s, "B", 0).ID)
		}
		ids = append(ids, take(t, s, "A", 1).ID) // a VIP in A's line
		// One served and finished (a service time), one timed out to the
		// recall pool, one passed and requeued.
		served := ok(t)(s.CallNext(bg, 1, "A"))
		ok(t)(s.StartServing(bg, served.ID, 1))
		s.ShiftClock(90 * time.Second)
		ok(t)(s.Finish(bg, served.ID, 1))
		late := ok(t)(s.CallNext(bg, 2, "A"))
		s.ShiftClock(121 * time.Second)
		if _, err := s.Sweep(bg); err != nil {
			t.Fatal(err)
		}
		passed := ok(t)(s.CallNext(bg, 3, "B"))
		ok(t)(s.Pass(bg, passed.ID, 3))
		ok(t)(s.Requeue(bg, passed.ID, 3))
		if _, err := s.SetWindowStatus(bg, 4, model.WindowPaused); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, late.ID, 999999) // 999999: no such ticket
		got, err := s.Positions(bg, ids)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := got[999999]; ok {
			t.Fatal("an unknown id got a position")
		}
		waiting := 0
		for _, id := range ids[:len(ids)-1] {
			want, err := s.Position(bg, id)
			if err != nil {
				t.Fatal(err)
			}
			if got[id] != want {
				t.Errorf("ticket %d: Positions %+v, Position %+v", id, got[id], want)
			}
			if want.Ahead > 0 {
				waiting++
			}
		}
		if waiting < 8 {
			t.Fatalf("only %d tickets have anyone ahead: the test proves little", waiting)
		}
	})
}

// The estimate counts the tickets of other services that the same windows
// will call first: at a 综合 window serving A and B, the B tickets taken
// before an A ticket are ahead of it, a B-only window takes some of them
// off its hands, and a VIP taken later is still called first. The
// estimate made at the take is kept on the ticket.
func TestEstimateCountsOtherServicesOfTheSameWindows(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		oneSharedWindow(t, s)
		take(t, s, "B", 0)
		take(t, s, "B", 0)
		take(t, s, "A", 0)
		mine := take(t, s, "A", 0)
		per := 300 // the default service time: no call made yet
		pos, err := s.Position(bg, mine.ID)
		if err != nil {
			t.Fatal(err)
		}
		// Window 1 calls B, B, A, then this one; window 2 serves only V.
		if pos != (model.Position{Ahead: 3, ETASeconds: 3 * per}) {
			t.Fatalf("at one 综合 window: %+v, want 3 ahead, %d s", pos, 3*per)
		}
		var kept []int
		if err := s.DB().Raw("SELECT estimate_s FROM ticket WHERE id = ?", mine.ID).Scan(&kept).Error; err != nil {
			t.Fatal(err)
		}
		if len(kept) != 1 || kept[0] != 3*per {
			t.Fatalf("estimate kept at the take %v, want %d", kept, 3*per)
		}
		// A B-only window opens: it takes the second B while window 1
		// takes the first, so window 1 reaches this ticket one customer
		// sooner; both B are still called before it.
		if _, err := s.SaveWindow(bg, model.Window{Number: 3, Name: "对公", Services: []string{"B"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetWindowStatus(bg, 3, model.WindowOpen); err != nil {
			t.Fatal(err)
		}
		if pos := ok2(t)(s.Position(bg, mine.ID)); pos != (model.Position{Ahead: 3, ETASeconds: 2 * per}) {
			t.Fatalf("with a B window: %+v, want 3 ahead, %d s", pos, 2*per)
		}
		// A priority A ticket taken now is called before it, and, one in
		// the last ten minutes, more are expected at that rate: window 1
		// calls the VIP, B, an expected VIP at 600 s, A, another at
		// 1,200 s, then this one.
		take(t, s, "A", 1)
		if pos := ok2(t)(s.Position(bg, mine.ID)); pos != (model.Position{Ahead: 4, ETASeconds: 5 * per}) {
			t.Fatalf("after a VIP: %+v, want 4 ahead, %d s", pos, 5*per)
		}
	})
}

func ok2(t *testing.T) func(model.Position, error) model.Position {
	return func(p model.Position, err error) model.Position {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
}
