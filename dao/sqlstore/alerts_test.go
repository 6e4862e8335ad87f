package sqlstore_test

import (
	"slices"
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
