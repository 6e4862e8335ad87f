package sqlstore_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Three PCs sweeping at once, again and again, on every engine: each
// condition raises one alert, each ended condition one clear; three PCs
// reporting the same device fault at once raise one alert.
func TestConcurrentAlertSweepers(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		stores := openStores(t, dsn, 3)
		s := stores[0]
		settings(t, s, "call_timeout_s", "3600", "alert_passed_min", "4", "alert_waiting", "3", "alert_clear_s", "0")
		for range 8 {
			take(t, s, "A", 0)
			take(t, s, "B", 0)
		}
		for w := 1; w <= 2; w++ {
			tk := ok(t)(s.CallNext(bg, w, "A"))
			ok(t)(s.Pass(bg, tk.ID, w)) // A: 2 of 8 passed
		}
		if _, err := s.SetWindowServices(bg, 4, []string{"B"}); err != nil {
			t.Fatal(err)
		}
		for _, st := range stores {
			st.ShiftClock(301 * time.Second) // every window idle past both timeouts
		}
		all := func(fn func(st *sqlstore.GormStore) error) {
			t.Helper()
			errs := make(chan error, len(stores)*4)
			for round := 0; round < 4; round++ {
				for _, st := range stores {
					go func() { errs <- fn(st) }()
				}
			}
			for range len(stores) * 4 {
				if err := <-errs; err != nil {
					t.Error(err)
				}
			}
		}
		sweepAll := func(st *sqlstore.GormStore) error { _, err := st.Sweep(bg); return err }
		all(sweepAll)
		want := map[string]alertCount{
			model.AlertIdlePause:   {4, 4}, // windows 1..4
			model.AlertPassedRatio: {1, 1}, // A
			model.AlertWaitingIdle: {2, 2}, // A and B, their windows paused
		}
		for kind, w := range want {
			if c := alertsOf(t, s, kind); c != w {
				t.Errorf("%s: %+v alerts, want %+v", kind, c, w)
			}
		}
		if n := eventsOf(t, s, model.EvAlert); n != 7 {
			t.Errorf("%d alert events, want 7", n)
		}
		// The conditions end: windows reopen, the passed ratio is off.
		settings(t, s, "alert_passed_ratio_pct", "0", "idle_window_timeout_s", "0", "alert_waiting", "0")
		for w := 1; w <= 4; w++ {
			if _, err := s.SetWindowStatus(bg, w, model.WindowOpen); err != nil {
				t.Fatal(err)
			}
		}
		all(sweepAll)
		if n := eventsOf(t, s, model.EvAlertClear); n != 7 {
			t.Errorf("%d clear events, want 7", n)
		}
		var open int
		s.DB().Raw("SELECT COUNT(*) FROM queue_alert WHERE open_key = 0").Scan(&open)
		if open != 0 {
			t.Errorf("%d alerts still open", open)
		}
		// One PC's printer, reported by three processes at once.
		ctx := model.WithActor(bg, "取号机1")
		all(func(st *sqlstore.GormStore) error { return st.ReportDevice(ctx, "printer", "缺纸") })
		if c := alertsOf(t, s, model.AlertDevice); c != (alertCount{1, 1}) {
			t.Errorf("device alerts %+v, want one", c)
		}
		// A follower that applied every event sees what a fresh snapshot says.
		followed := model.Snapshot{}
		evs, err := s.EventsSince(bg, 0, 1000)
		okAny(t, err)
		for _, ev := range evs {
			followed.Version = ev.Version - 1
			followed.Apply(ev)
		}
		fresh, err := s.Snapshot(bg)
		okAny(t, err)
		if len(fresh.Alerts) != 8 || !sameAlerts(followed.Alerts, fresh.Alerts) {
			t.Errorf("followed %d alerts, fresh snapshot %d (want 8), or they differ", len(followed.Alerts), len(fresh.Alerts))
		}
	})
}

// sameAlerts compares what the manager sees of two alert lists.
func sameAlerts(a, b []model.Alert) bool {
	key := func(x model.Alert) [4]any { return [4]any{x.ID, x.Kind, x.Subject, x.Cleared != nil} }
	return slices.EqualFunc(a, b, func(x, y model.Alert) bool { return key(x) == key(y) })
}

// The manager acknowledges alerts at the moment their devices recover on
// other PCs: each ends up done (out of the snapshot), and a follower of
// the events agrees, whichever commits first.
func TestAlertAckWhileItEnds(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		mgr, pcs := openStore(t, dsn), openStore(t, dsn)
		settings(t, mgr, "alert_clear_s", "0") // a recovery ends its alert at once
		const n = 12
		terminal := func(i int) context.Context { return model.WithActor(bg, fmt.Sprintf("取号机%d", i)) }
		for i := range n {
			okAny(t, pcs.ReportDevice(terminal(i), "printer", "缺纸"))
		}
		start, err := mgr.Snapshot(bg)
		okAny(t, err)
		if len(start.Alerts) != n {
			t.Fatalf("%d alerts, want %d", len(start.Alerts), n)
		}
		var wg sync.WaitGroup
		for i, a := range start.Alerts {
			wg.Add(2)
			go func() {
				defer wg.Done()
				if _, err := mgr.AckAlert(model.WithActor(bg, "经理"), a.ID); err != nil {
					t.Errorf("acknowledge %d: %v", a.ID, err) // t.Fatal stops only this goroutine
				}
			}()
			go func() {
				defer wg.Done()
				if err := pcs.ReportDevice(terminal(n-1-i), "printer", ""); err != nil {
					t.Errorf("recovery of %d: %v", n-1-i, err)
				}
			}()
		}
		wg.Wait()
		if t.Failed() {
			return
		}
		fresh, err := mgr.Snapshot(bg)
		okAny(t, err)
		evs, err := mgr.EventsSince(bg, start.Version, 1000)
		okAny(t, err)
		followed := start.Clone()
		for _, ev := range evs {
			if !followed.Apply(ev) {
				t.Fatalf("event %d not applied", ev.Version)
			}
		}
		if len(fresh.Alerts) != 0 || len(followed.Alerts) != 0 {
			t.Fatalf("alerts left: %d in a fresh snapshot, %d followed; want none", len(fresh.Alerts), len(followed.Alerts))
		}
	})
}

func openStore(t *testing.T, dsn string) *sqlstore.GormStore {
	t.Helper()
	s, err := sqlstore.Open(bg, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A PC's printer flaps while two other PCs sweep, on every engine, their
// clocks past alert_clear_s so each recovery can end the alert at once:
// whichever commits first, the last fault is never left without its open
// alert, and each occurrence is raised once and ended once in the log.
func TestDeviceFlapWhileSweeping(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		pc, sweepers := openStore(t, dsn), []*sqlstore.GormStore{openStore(t, dsn), openStore(t, dsn)}
		quiet(t, pc)
		settings(t, pc, "alert_clear_s", "60", "alert_waiting", "0", "alert_passed_ratio_pct", "0")
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for _, st := range sweepers {
			st.ShiftClock(61 * time.Second)
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := st.Sweep(bg); err != nil {
						t.Errorf("sweep: %v", err)
						return
					}
				}
			})
		}
		ctx := model.WithActor(bg, "取号机1")
		for i := range 41 { // fault, recovery, …, fault
			fault := "缺纸"
			if i%2 == 1 {
				fault = ""
			}
			if err := pc.ReportDevice(ctx, "printer", fault); err != nil {
				t.Errorf("report %d: %v", i, err)
				break
			}
		}
		close(stop)
		wg.Wait()
		c := alertsOf(t, pc, model.AlertDevice)
		if c.open != 1 || eventsOf(t, pc, model.EvAlert) != c.raised || eventsOf(t, pc, model.EvAlertClear) != c.raised-1 {
			t.Fatalf("%+v alerts, %d raised and %d ended in the log; want the last fault open and each logged once",
				c, eventsOf(t, pc, model.EvAlert), eventsOf(t, pc, model.EvAlertClear))
		}
		t.Logf("%d occurrences for 21 faults", c.raised)
	})
}
