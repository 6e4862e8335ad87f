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

// Alerts: each trigger raises one alert, a condition that goes on does not
// raise more, an ended one may raise the next occurrence, and the
// manager's acknowledgement is recorded. Read straight from the tables.

func settings(t *testing.T, s model.Store, kv ...string) {
	t.Helper()
	for i := 0; i < len(kv); i += 2 {
		if err := s.SetSetting(bg, kv[i], kv[i+1]); err != nil {
			t.Fatalf("%s=%s: %v", kv[i], kv[i+1], err)
		}
	}
}

func sweep(t *testing.T, s model.Store) model.SweepResult {
	t.Helper()
	r, err := s.Sweep(bg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// eventsOf counts the log's events of one kind.
func eventsOf(t *testing.T, s *sqlstore.GormStore, kind string) int {
	t.Helper()
	var n int
	if err := s.DB().Raw("SELECT COUNT(*) FROM queue_event WHERE kind = ?", kind).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

type alertCount struct{ raised, open int }

// alertsOf counts the alert rows of one kind: all occurrences, and those
// still open.
func alertsOf(t *testing.T, s *sqlstore.GormStore, kind string) alertCount {
	t.Helper()
	var c alertCount
	s.DB().Raw("SELECT COUNT(*) FROM queue_alert WHERE kind = ?", kind).Scan(&c.raised)
	s.DB().Raw("SELECT COUNT(*) FROM queue_alert WHERE kind = ? AND open_key = 0", kind).Scan(&c.open)
	return c
}

func liveAlert(t *testing.T, s model.Store, kind, subject string) (model.Alert, bool) {
	t.Helper()
	snap, err := s.Snapshot(bg)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range snap.Alerts {
		if a.Kind == kind && a.Subject == subject {
			return a, true
		}
	}
	return model.Alert{}, false
}

// quiet turns off the timers that would move tickets or windows while a
// test looks at one trigger.
func quiet(t *testing.T, s model.Store) {
	settings(t, s, "call_timeout_s", "3600", "idle_window_timeout_s", "0")
}

func TestAlertPassedRatio(t *testing.T) {
	s := daotest.SQLite(t)
	quiet(t, s)
	settings(t, s, "alert_passed_min", "4", "alert_waiting", "0", "alert_clear_s", "60")
	for range 3 {
		take(t, s, "A", 0)
	}
	first := ok(t)(s.CallNext(bg, 1, ""))
	ok(t)(s.Pass(bg, first.ID, 1))
	if r := sweep(t, s); r.Alerts != 0 {
		t.Fatalf("1 passed of 3 raised %d alerts below the minimum of 4 tickets", r.Alerts)
	}
	take(t, s, "A", 0) // 1 of 4: 25 % > 15 %
	if r := sweep(t, s); r.Alerts != 1 {
		t.Fatalf("25 %% passed raised %d alerts, want 1", r.Alerts)
	}
	for range 5 {
		s.ShiftClock(11 * time.Second) // past the recheck: each sweep decides again
		if r := sweep(t, s); r.Alerts != 0 {
			t.Fatalf("the same condition raised %d more", r.Alerts)
		}
	}
	a, found := liveAlert(t, s, model.AlertPassedRatio, "A")
	if !found || a.Count != 1 || a.Total != 4 || a.Service != "A" || a.Cleared != nil {
		t.Fatalf("snapshot alert %+v (found %v)", a, found)
	}
	for range 3 {
		take(t, s, "A", 0) // 1 of 7: 14 %
	}
	sweep(t, s)
	if c := alertsOf(t, s, model.AlertPassedRatio); c.open != 1 || eventsOf(t, s, model.EvAlertClear) != 0 {
		t.Fatalf("a dip under the threshold ended the alert at once: %+v", c)
	}
	s.ShiftClock(61 * time.Second)
	sweep(t, s)
	if c := alertsOf(t, s, model.AlertPassedRatio); c.open != 0 || eventsOf(t, s, model.EvAlertClear) != 1 {
		t.Fatalf("60 s under the threshold did not end the alert: %+v", c)
	}
	if a, _ := liveAlert(t, s, model.AlertPassedRatio, "A"); a.Cleared == nil {
		t.Fatalf("the ended alert, not acknowledged, left the manager's list or is not marked ended: %+v", a)
	}
	second := ok(t)(s.CallNext(bg, 1, ""))
	ok(t)(s.Pass(bg, second.ID, 1)) // 2 of 7: the next occurrence
	if r := sweep(t, s); r.Alerts != 1 || eventsOf(t, s, model.EvAlert) != 2 {
		t.Fatalf("the second occurrence raised %d alerts (%d in the log), want 1 (2)", r.Alerts, eventsOf(t, s, model.EvAlert))
	}
}

func TestAlertWaitingWhileWindowIdle(t *testing.T) {
	s := daotest.SQLite(t)
	quiet(t, s)
	settings(t, s, "alert_waiting", "2", "alert_idle_s", "60", "alert_clear_s", "0", "alert_passed_ratio_pct", "0")
	for range 3 {
		take(t, s, "A", 0)
	}
	ok(t)(s.CallNext(bg, 1, ""))
	take(t, s, "A", 0) // 3 waiting, window 1 busy, 2..4 open and idle
	if r := sweep(t, s); r.Alerts != 0 {
		t.Fatalf("windows idle for less than alert_idle_s raised %d alerts", r.Alerts)
	}
	s.ShiftClock(61 * time.Second)
	if r := sweep(t, s); r.Alerts != 1 {
		t.Fatalf("3 waiting with idle windows raised %d alerts, want 1", r.Alerts)
	}
	a, _ := liveAlert(t, s, model.AlertWaitingIdle, "A")
	if a.Count != 3 || !slices.Equal(a.Windows, []int{2, 3, 4}) {
		t.Fatalf("alert %+v, want 3 waiting and windows 2, 3, 4", a)
	}
	for range 3 {
		s.ShiftClock(11 * time.Second) // past the recheck: each sweep decides again
		if r := sweep(t, s); r.Alerts != 0 {
			t.Fatalf("the same condition raised %d more", r.Alerts)
		}
	}
	ok(t)(s.CallNext(bg, 2, "")) // 2 waiting: not over 2
	sweep(t, s)
	if c := alertsOf(t, s, model.AlertWaitingIdle); c.raised != 1 || c.open != 0 {
		t.Fatalf("after the queue went down: %+v", c)
	}
}

func TestAlertIdlePause(t *testing.T) {
	s := daotest.SQLite(t)
	settings(t, s, "call_timeout_s", "3600", "alert_clear_s", "0", "alert_waiting", "0")
	s.ShiftClock(301 * time.Second)
	if r := sweep(t, s); r.Paused != 4 || r.Alerts != 4 {
		t.Fatalf("sweep %+v, want 4 windows paused and 4 alerts", r)
	}
	if r := sweep(t, s); r.Alerts != 0 {
		t.Fatalf("paused windows raised %d more alerts", r.Alerts)
	}
	if _, err := s.SetWindowStatus(bg, 1, model.WindowOpen); err != nil {
		t.Fatal(err)
	}
	sweep(t, s)
	if a, _ := liveAlert(t, s, model.AlertIdlePause, "1"); a.Cleared == nil {
		t.Fatalf("window 1 reopened, its alert not ended: %+v", a)
	}
	if c := alertsOf(t, s, model.AlertIdlePause); c.open != 3 {
		t.Fatalf("open idle-pause alerts %+v, want 3", c)
	}
	s.ShiftClock(301 * time.Second)
	if r := sweep(t, s); r.Paused != 1 || r.Alerts != 1 {
		t.Fatalf("window 1 idle again: %+v, want it paused with one new alert", r)
	}
	// A clerk's own pause is not the sweeper's: no alert.
	if _, err := s.SetWindowStatus(bg, 2, model.WindowOpen); err != nil {
		t.Fatal(err)
	}
	sweep(t, s) // ends window 2's alert
	if _, err := s.SetWindowStatus(bg, 2, model.WindowPaused); err != nil {
		t.Fatal(err)
	}
	sweep(t, s)
	if c := alertsOf(t, s, model.AlertIdlePause); c.raised != 5 || c.open != 3 {
		t.Fatalf("idle-pause alerts %+v, want 5 raised (4, then window 1 again) and 3 open (1, 3, 4)", c)
	}
}

func TestAlertDeviceFault(t *testing.T) {
	s := daotest.SQLite(t)
	ctx := model.WithActor(bg, "取号机1")
	okAny(t, s.ReportDevice(ctx, "printer", "缺纸"))
	okAny(t, s.ReportDevice(ctx, "printer", "卡纸")) // still failing: the same occurrence
	okAny(t, s.ReportDevice(model.WithActor(bg, "取号机2"), "printer", "缺纸"))
	if c := alertsOf(t, s, model.AlertDevice); c.raised != 2 || c.open != 2 {
		t.Fatalf("device alerts %+v, want 2 (one per PC)", c)
	}
	a, _ := liveAlert(t, s, model.AlertDevice, "取号机1/printer")
	if a.Terminal != "取号机1" || a.Device != "printer" || a.Fault != "缺纸" {
		t.Fatalf("alert %+v", a)
	}
	okAny(t, s.ReportDevice(ctx, "printer", ""))
	okAny(t, s.ReportDevice(ctx, "printer", "缺纸"))
	if c := alertsOf(t, s, model.AlertDevice); c.raised != 3 || c.open != 2 || eventsOf(t, s, model.EvAlertClear) != 1 {
		t.Fatalf("after recovery and a new fault: %+v", c)
	}
}

func TestAlertAcknowledged(t *testing.T) {
	s := daotest.SQLite(t)
	okAny(t, s.ReportDevice(model.WithActor(bg, "大屏"), "voice", "没有语音引擎"))
	a, _ := liveAlert(t, s, model.AlertDevice, "大屏/voice")
	mgr := model.WithActor(bg, "经理")
	s.ShiftClock(time.Hour) // the database clock, not this process's
	before, _ := s.Now(bg)
	got, err := s.AckAlert(mgr, a.ID)
	after, _ := s.Now(bg)
	if err != nil {
		t.Fatal(err)
	}
	if got.AckBy != "经理" || got.AckAt == nil || got.AckAt.Before(before.Truncate(time.Microsecond)) || got.AckAt.After(after) {
		t.Fatalf("acknowledged %+v, want by 经理 between %v and %v", got, before, after)
	}
	var row struct {
		AckBy string
		AckAt time.Time
	}
	s.DB().Raw("SELECT ack_by, ack_at FROM queue_alert WHERE id = ?", a.ID).Scan(&row)
	if row.AckBy != "经理" || !row.AckAt.Equal(*got.AckAt) {
		t.Fatalf("stored %+v, answered %+v", row, got)
	}
	evs, err := s.EventsSince(bg, 0, 100)
	okAny(t, err)
	last := evs[len(evs)-1]
	if last.Kind != model.EvAlertAck || last.Actor != "经理" || last.Alert == nil || last.Alert.ID != a.ID {
		t.Fatalf("last event %+v", last)
	}
	// Still failing: the manager still sees it, acknowledged.
	if live, found := liveAlert(t, s, model.AlertDevice, "大屏/voice"); !found || live.AckAt == nil {
		t.Fatalf("acknowledged open alert in the snapshot: %+v (found %v)", live, found)
	}
	n := countEvents(t, s)
	if _, err := s.AckAlert(mgr, a.ID); !model.IsCode(err, model.EInvalidTransition) {
		t.Fatalf("second acknowledgement: %v", err)
	}
	if _, err := s.AckAlert(mgr, a.ID+100); !model.IsCode(err, model.ENotFound) {
		t.Fatalf("unknown alert: %v", err)
	}
	if countEvents(t, s) != n {
		t.Fatal("a refused acknowledgement wrote an event")
	}
	okAny(t, s.ReportDevice(model.WithActor(bg, "大屏"), "voice", ""))
	if _, found := liveAlert(t, s, model.AlertDevice, "大屏/voice"); found {
		t.Fatal("an ended, acknowledged alert is still in the snapshot")
	}
}

// Three PCs sweeping at once, again and again, on every engine: each
// condition raises one alert, each ended condition one clear; three PCs
// reporting the same device fault at once raise one alert.
func TestConcurrentAlertSweepers(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		stores := make([]*sqlstore.GormStore, 3)
		for i := range stores {
			s, err := sqlstore.Open(bg, dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			stores[i] = s
		}
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
			go func() { defer wg.Done(); _, err := mgr.AckAlert(model.WithActor(bg, "经理"), a.ID); okAny(t, err) }()
			go func() { defer wg.Done(); okAny(t, pcs.ReportDevice(terminal(n-1-i), "printer", "")) }()
		}
		wg.Wait()
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
