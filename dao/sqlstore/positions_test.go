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
