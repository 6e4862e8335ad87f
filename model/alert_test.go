package model

import (
	"slices"
	"testing"
	"time"
)

func TestPassedHighNeedsEnoughTickets(t *testing.T) {
	r := ParseSettings(map[string]string{"alert_passed_min": "20"}).Alerts
	for _, c := range []struct {
		taken, passed int
		want          bool
	}{
		{1, 1, false},   // the first pass of the morning is not 100 %
		{19, 19, false}, // still under the minimum
		{20, 3, false},  // 15 % is not over 15 %
		{20, 4, true},
		{100, 16, true},
		{0, 0, false},
	} {
		if got := r.PassedHigh(c.taken, c.passed); got != c.want {
			t.Errorf("%d of %d passed: %v, want %v", c.passed, c.taken, got, c.want)
		}
	}
	off := ParseSettings(map[string]string{"alert_passed_ratio_pct": "0"}).Alerts
	if off.PassedHigh(100, 100) {
		t.Error("a threshold of 0 still alerts")
	}
}

func TestLeftIdleIgnoresAWindowBetweenCalls(t *testing.T) {
	r := ParseSettings(nil).Alerts // alert_idle_s 60
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(-d); return &t }
	for _, c := range []struct {
		name string
		w    Window
		want bool
	}{
		{"just finished a customer", Window{Status: WindowOpen, LastActionAt: at(5 * time.Second)}, false},
		{"open and idle a minute", Window{Status: WindowOpen, LastActionAt: at(time.Minute)}, true},
		{"holding a ticket", Window{Status: WindowOpen, CurrentID: 7, LastActionAt: at(time.Hour)}, false},
		{"paused", Window{Status: WindowPaused, LastActionAt: at(2 * time.Minute)}, true},
		{"at lunch", Window{Status: WindowLunch, LastActionAt: at(time.Hour)}, false},
		{"closed", Window{Status: WindowClosed, LastActionAt: at(time.Hour)}, false},
	} {
		if got := r.LeftIdle(c.w, now); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestConditionsPerService(t *testing.T) {
	r := ParseSettings(map[string]string{"alert_waiting": "5", "alert_passed_min": "10"}).Alerts
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	old := now.Add(-time.Hour)
	counts := []ServiceCount{{Code: "A", Waiting: 6, Taken: 10, Passed: 2}, {Code: "B", Waiting: 6, Taken: 10, Passed: 1}}
	windows := []Window{
		{Number: 1, Status: WindowOpen, Services: []string{"A"}, LastActionAt: &old},
		{Number: 2, Status: WindowOpen, Services: []string{"B"}, CurrentID: 3, LastActionAt: &old},
		{Number: 3, Status: WindowPaused, Services: []string{"A", "B"}, LastActionAt: &old},
	}
	var got []string
	for _, a := range r.Conditions(counts, windows, now) {
		got = append(got, a.Kind+":"+a.Subject)
	}
	want := []string{"idle_pause:3", "passed_ratio:A", "waiting_idle:A", "waiting_idle:B"}
	if !slices.Equal(got, want) {
		t.Fatalf("conditions %v, want %v", got, want)
	}
}

// A follower keeps the alerts the manager still sees as the store lists
// them: raised, acknowledged while it lasts, gone once ended and answered.
func TestApplyAlerts(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	s := Snapshot{Version: 1}
	ev := func(kind string, a Alert) Event { return Event{Version: s.Version + 1, Kind: kind, Alert: &a} }
	a := Alert{ID: 1, Kind: AlertDevice, Subject: "k/printer", Since: now}
	b := Alert{ID: 2, Kind: AlertIdlePause, Subject: "3", Window: 3, Since: now}
	s.Apply(ev(EvAlert, a))
	s.Apply(ev(EvAlert, b))
	if len(s.Alerts) != 2 || s.Alerts[0].ID != 2 {
		t.Fatalf("alerts %+v, want the newest first", s.Alerts)
	}
	acked, err := AckAlert(a, "经理", now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AckAlert(acked, "经理", now); !IsCode(err, EInvalidTransition) {
		t.Fatalf("second acknowledgement: %v", err)
	}
	s.Apply(ev(EvAlertAck, acked))
	if len(s.Alerts) != 2 || s.Alerts[1].AckBy != "经理" {
		t.Fatalf("an acknowledged alert that lasts stays listed: %+v", s.Alerts)
	}
	cleared := acked
	cleared.Cleared = &now
	s.Apply(ev(EvAlertClear, cleared))
	ended := b
	ended.Cleared = &now
	s.Apply(ev(EvAlertClear, ended))
	if len(s.Alerts) != 1 || s.Alerts[0].ID != 2 || s.Alerts[0].Cleared == nil {
		t.Fatalf("alerts %+v, want only the ended one nobody answered", s.Alerts)
	}
	// However many alerts follow, the one nobody answered stays listed:
	// dropping it would leave the manager nothing to acknowledge it by.
	for i := int64(3); i < 103; i++ {
		s.Apply(ev(EvAlert, Alert{ID: i, Kind: AlertDevice, Subject: "x"}))
	}
	if len(s.Alerts) != 101 || s.Alerts[0].ID != 102 || s.Alerts[100].ID != 2 {
		t.Fatalf("%d alerts kept, newest %d, oldest %d; want 101, 102, 2", len(s.Alerts), s.Alerts[0].ID, s.Alerts[len(s.Alerts)-1].ID)
	}
	if !s.Alerts[100].ToAnswer() || acked.ToAnswer() {
		t.Fatalf("to answer: the unanswered %v, the acknowledged %v", s.Alerts[100].ToAnswer(), acked.ToAnswer())
	}
}

// A device alert's PC is gone when every terminal of its name is revoked
// or unseen for alert_device_gone_s; a PC not registered, or seen lately
// under one of its tokens, is not.
func TestTerminalGone(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) *time.Time { t := now.Add(-d); return &t }
	r := ParseSettings(nil).Alerts // alert_device_gone_s 600
	terms := []Terminal{
		{Name: "取号机1", Role: RoleKiosk, LastSeen: ago(time.Minute)},
		{Name: "取号机2", Role: RoleKiosk, LastSeen: ago(time.Minute), Revoked: true},
		{Name: "取号机3", Role: RoleKiosk, LastSeen: ago(11 * time.Minute)},
		{Name: "取号机4", Role: RoleKiosk, LastSeen: ago(time.Hour), Revoked: true},
		{Name: "取号机4", Role: RoleKiosk, LastSeen: ago(time.Minute)}, // its new token
		{Name: "柜台", Role: RoleCaller, Window: 3, LastSeen: ago(time.Hour)},
		{Role: RoleScreen},
	}
	for _, c := range []struct {
		name string
		want bool
	}{
		{"取号机1", false}, {"取号机2", true}, {"取号机3", true}, {"取号机4", false},
		{"柜台@3", true}, {"柜台", false}, {"screen", false}, {"kiosk@pc7", false},
	} {
		if got := r.TerminalGone(terms, c.name, now); got != c.want {
			t.Errorf("%s: gone %v, want %v", c.name, got, c.want)
		}
	}
	r.DeviceGone = 0 // only revoking counts
	if r.TerminalGone(terms, "取号机3", now) || !r.TerminalGone(terms, "取号机2", now) {
		t.Error("alert_device_gone_s 0: an unseen PC counted as gone, or a revoked one did not")
	}
}

func TestAlertSettingsValidated(t *testing.T) {
	for _, kv := range [][2]string{{"alert_passed_ratio_pct", "101"}, {"alert_passed_min", "0"}, {"alert_waiting", "-1"}, {"alert_clear_s", "x"}} {
		if err := ValidateSetting(kv[0], kv[1]); !IsCode(err, EInvalidInput) {
			t.Errorf("%s=%s: %v", kv[0], kv[1], err)
		}
	}
	r := ParseSettings(map[string]string{"alert_passed_ratio_pct": "20", "alert_idle_s": "90"}).Alerts
	if r.PassedPct != 20 || r.IdleFor != 90*time.Second || r.Waiting != 20 || r.PassedMin != 20 || r.ClearAfter != time.Minute || r.DeviceGone != 10*time.Minute {
		t.Fatalf("rules %+v", r)
	}
}
