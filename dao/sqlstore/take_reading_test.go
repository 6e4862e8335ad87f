package sqlstore_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// sameEstimates fails unless the estimate of a new number made from s's
// kept reading is the one a fresh reading makes, for each probe.
func sameEstimates(t *testing.T, s *sqlstore.GormStore, when string) {
	t.Helper()
	for _, p := range []struct {
		service  string
		priority int
	}{{"A", 0}, {"B", 0}, {"A", 1}, {"V", 0}} {
		kept, fresh, err := sqlstore.KeptAndFreshEstimates(bg, s, p.service, p.priority)
		okAny(t, err)
		if kept.Position != fresh.Position {
			t.Fatalf("%s: a new %s at priority %d: kept reading says %+v, a fresh one %+v", when, p.service, p.priority, kept.Position, fresh.Position)
		}
		if !slices.Equal(kept.Arrivals, fresh.Arrivals) {
			t.Fatalf("%s: the kept reading's last numbers taken are %v, a fresh one's %v", when, kept.Arrivals, fresh.Arrivals)
		}
	}
}

// A rush of takes is estimated from the reading the last take kept, with
// the takes since added (this PC's and another's, VIPs ahead of the head
// and numbers past the count's end), and it must say what reading
// everything again says; a call, a pause or a new service between takes
// must make it read again.
func TestKeptReadingIsAFreshOne(t *testing.T) {
	sqlstore.KeepReadings(t, time.Hour)
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		stores := openStores(t, dsn, 2)
		s, other := stores[0], stores[1]
		oneSharedWindow(t, s)
		for i := 1; i <= 320; i++ {
			switch {
			case i%40 == 0:
				ok(t)(other.CallNext(bg, 1, ""))
			case i%97 == 0:
				okAny(t, second(other.SetWindowStatus(bg, 1, model.WindowPaused)))
				take(t, s, "A", 0)
				okAny(t, second(other.SetWindowStatus(bg, 1, model.WindowOpen)))
			case i%13 == 0:
				take(t, other, "A", 1)
			case i%11 == 0:
				take(t, s, "A", 1)
			case i%7 == 0:
				take(t, other, "B", 0)
			default:
				take(t, s, "A", 0)
			}
			sameEstimates(t, s, fmt.Sprintf("step %d", i))
		}
		// Past MaxAhead the count stops; the VIPs still go to the head.
		for i := 1; i <= 760; i++ {
			switch {
			case i%50 == 0:
				take(t, s, "A", 1)
				sameEstimates(t, s, fmt.Sprintf("a VIP at %d past the first 320", i))
			case i%3 == 0:
				take(t, other, "A", 0)
			default:
				take(t, s, "A", 0)
			}
		}
		sameEstimates(t, s, "over a thousand waiting")
		if n := s.ReplayedEvents(); n < 500 {
			t.Fatalf("the kept reading took in %d events of about 1,000 takes: the takes read everything again", n)
		}
	})
}

// Takes from sixteen kiosks on two PCs at once bring their kept readings
// up to date while other takes commit: no ticket is counted twice, nor
// missed, by a reading made while another take committed.
func TestKeptReadingUnderConcurrentTakes(t *testing.T) {
	sqlstore.KeepReadings(t, time.Hour)
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		stores := openStores(t, dsn, 2)
		oneSharedWindow(t, stores[0])
		take(t, stores[0], "A", 0)
		for round := 1; round <= 3; round++ {
			var wg sync.WaitGroup
			errs := make(chan error, 16)
			for k := range 16 {
				wg.Go(func() {
					s := stores[k%2]
					for i := range 20 {
						svc, prio := "A", 0
						switch {
						case (i+k)%9 == 0:
							prio = 1
						case (i+k)%4 == 0:
							svc = "B"
						}
						if _, err := s.TakeTicket(bg, svc, prio, "kiosk"); err != nil {
							errs <- err
							return
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			for i, s := range stores {
				sameEstimates(t, s, fmt.Sprintf("PC %d after round %d of 320 takes at once", i+1, round))
			}
		}
		for i, s := range stores {
			if s.ReplayedEvents() == 0 {
				t.Fatalf("PC %d never brought a kept reading up to date", i+1)
			}
		}
	})
}

// A walk whose statement missed a commit that one it saw came after (a
// version missing between the one every statement since has seen and
// its own) is read again, and one that keeps missing it is not kept. The
// missing commit is made here by removing its event.
func TestWalkMissingAVersionIsNotKept(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		for range 4 {
			take(t, s, "A", 0)
		}
		var v int64
		okAny(t, s.DB().Raw("SELECT version FROM branch WHERE id = ?", s.BranchID()).Scan(&v).Error)
		keeps := sqlstore.KeepsReadings(s)
		walk := func(known int64, wantMissed bool) {
			t.Helper()
			n, at, missed, err := sqlstore.WalkAfter(bg, s, "A", known)
			okAny(t, err)
			wantAt := v
			if !keeps { // no version read, none checked, nothing kept: one read
				wantAt, wantMissed = 0, false
			}
			if n != 4 || at != wantAt || missed != wantMissed {
				t.Fatalf("walk after version %d of %d: %d ahead at version %d, missed %v; want 4 at %d, missed %v", known, v, n, at, missed, wantAt, wantMissed)
			}
		}
		walk(v-3, false)
		okAny(t, s.DB().Exec("DELETE FROM queue_event WHERE branch_id = ? AND version = ?", s.BranchID(), v-1).Error)
		walk(v-3, true)
		walk(v-1, false) // every version after v-1 is there
		walk(0, false)   // nothing asked
	})
}
