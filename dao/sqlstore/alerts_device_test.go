package sqlstore_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// Device alerts: a fault raises one, a device that keeps failing or flaps
// within alert_clear_s is one occurrence, one whose PC is gone ends, and
// the snapshot carries every alert the manager has yet to answer.

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
	// Working again, then failing again within alert_clear_s (60 s): the
	// same occurrence goes on.
	okAny(t, s.ReportDevice(ctx, "printer", ""))
	okAny(t, s.ReportDevice(ctx, "printer", "缺纸"))
	if c := alertsOf(t, s, model.AlertDevice); c.raised != 2 || c.open != 2 || eventsOf(t, s, model.EvAlertClear) != 0 {
		t.Fatalf("after a short recovery and a new fault: %+v", c)
	}
	okAny(t, s.ReportDevice(ctx, "printer", ""))
	s.ShiftClock(61 * time.Second)
	sweep(t, s)
	if c := alertsOf(t, s, model.AlertDevice); c.open != 1 || eventsOf(t, s, model.EvAlertClear) != 1 {
		t.Fatalf("60 s working did not end the alert: %+v", c)
	}
	okAny(t, s.ReportDevice(ctx, "printer", "缺纸"))
	if c := alertsOf(t, s, model.AlertDevice); c.raised != 3 || c.open != 2 {
		t.Fatalf("a fault after the alert ended: %+v, want a new one", c)
	}
}

// A device that flaps, or a token that reports it flapping, raises one
// alert while it never works for alert_clear_s: ten faults five seconds
// apart are one occurrence, one sound. It ends once the device has worked
// for alert_clear_s, and the next fault is a new one.
func TestAlertDeviceFlapIsOneOccurrence(t *testing.T) {
	s := daotest.SQLite(t)
	quiet(t, s)
	settings(t, s, "alert_clear_s", "600")
	ctx := model.WithActor(bg, "取号机1")
	for range 10 {
		okAny(t, s.ReportDevice(ctx, "printer", "缺纸"))
		s.ShiftClock(5 * time.Second)
		sweep(t, s)
		okAny(t, s.ReportDevice(ctx, "printer", ""))
		s.ShiftClock(5 * time.Second)
		sweep(t, s)
	}
	if c := alertsOf(t, s, model.AlertDevice); c != (alertCount{1, 1}) || eventsOf(t, s, model.EvAlert) != 1 {
		t.Fatalf("ten flaps: %+v alerts, %d alert events; want one, open", c, eventsOf(t, s, model.EvAlert))
	}
	s.ShiftClock(594 * time.Second) // 599 s working
	sweep(t, s)
	if c := alertsOf(t, s, model.AlertDevice); c.open != 1 {
		t.Fatalf("ended before alert_clear_s: %+v", c)
	}
	s.ShiftClock(11 * time.Second) // past the recheck too
	sweep(t, s)
	if a, found := liveAlert(t, s, model.AlertDevice, "取号机1/printer"); !found || a.Cleared == nil || eventsOf(t, s, model.EvAlertClear) != 1 {
		t.Fatalf("after 610 s working: %+v (found %v), want it ended and still listed", a, found)
	}
	okAny(t, s.ReportDevice(ctx, "printer", "缺纸"))
	if c := alertsOf(t, s, model.AlertDevice); c != (alertCount{2, 1}) {
		t.Fatalf("a fault after the end: %+v, want the second occurrence", c)
	}
}

// A PC that is revoked, or not seen for alert_device_gone_s, will never say
// its device works: its device alerts end. A PC seen lately, or one that
// is not registered (it writes to the database itself), keeps them.
func TestAlertDeviceEndsWhenItsPCIsGone(t *testing.T) {
	s := daotest.SQLite(t)
	quiet(t, s)
	settings(t, s, "alert_device_gone_s", "600")
	add := func(name string, role model.Role, window int) model.Terminal {
		t.Helper()
		hash := fmt.Sprintf("%064x", len(name)*1000+window)
		term, err := s.AddTerminal(bg, model.Terminal{Name: name, Role: role, Window: window, TokenHash: hash})
		okAny(t, err)
		okAny(t, s.TouchTerminal(bg, term.ID))
		return term
	}
	revoked, unseen, seen := add("取号机1", model.RoleKiosk, 0), add("柜台", model.RoleCaller, 2), add("大屏", model.RoleScreen, 0)
	for _, name := range []string{revoked.ActorName(), unseen.ActorName(), seen.ActorName(), "kiosk@pc9"} {
		okAny(t, s.ReportDevice(model.WithActor(bg, name), "printer", "缺纸"))
	}
	open := func() []string {
		t.Helper()
		snap, err := s.Snapshot(bg)
		okAny(t, err)
		var out []string
		for _, a := range snap.Alerts {
			if a.Cleared == nil {
				out = append(out, a.Terminal)
			}
		}
		slices.Sort(out)
		return out
	}
	okAny(t, s.RevokeTerminal(bg, revoked.ID))
	s.ShiftClock(11 * time.Second)
	sweep(t, s)
	if got, want := open(), []string{"kiosk@pc9", "大屏", "柜台@2"}; !slices.Equal(got, want) {
		t.Fatalf("after revoking 取号机1, open for %v, want %v", got, want)
	}
	s.ShiftClock(5 * time.Minute)
	okAny(t, s.TouchTerminal(bg, seen.ID))
	s.ShiftClock(5 * time.Minute)
	sweep(t, s)
	if got, want := open(), []string{"kiosk@pc9", "大屏"}; !slices.Equal(got, want) {
		t.Fatalf("after 柜台@2 went unseen for 10 min, open for %v, want %v", got, want)
	}
	s.ShiftClock(time.Hour)
	sweep(t, s)
	if got, want := open(), []string{"kiosk@pc9"}; !slices.Equal(got, want) {
		t.Fatalf("an hour later, open for %v, want only the unregistered PC's", got)
	}
	if n := eventsOf(t, s, model.EvAlertClear); n != 3 {
		t.Fatalf("%d clear events, want 3", n)
	}
}

// However many alerts come, the snapshot carries every one the manager
// has not answered, so each can be acknowledged: sixty device alerts
// after four idle pauses push none of them out.
func TestSnapshotKeepsEveryUnansweredAlert(t *testing.T) {
	s := daotest.SQLite(t)
	settings(t, s, "call_timeout_s", "3600", "alert_clear_s", "0", "alert_waiting", "0")
	s.ShiftClock(301 * time.Second)
	if r := sweep(t, s); r.Alerts != 4 {
		t.Fatalf("sweep %+v, want 4 idle-pause alerts", r)
	}
	ctx := model.WithActor(bg, "取号机1")
	for range 60 { // each an occurrence: alert_clear_s is 0
		okAny(t, s.ReportDevice(ctx, "printer", "缺纸"))
		okAny(t, s.ReportDevice(ctx, "printer", ""))
	}
	snap, err := s.Snapshot(bg)
	okAny(t, err)
	paused := 0
	for _, a := range snap.Alerts {
		if a.Kind == model.AlertIdlePause {
			paused++
			if _, err := s.AckAlert(model.WithActor(bg, "经理"), a.ID); err != nil {
				t.Fatalf("acknowledging window %d: %v", a.Window, err)
			}
		}
	}
	if len(snap.Alerts) != 64 || paused != 4 {
		t.Fatalf("snapshot has %d alerts, %d idle pauses; want 64 and 4", len(snap.Alerts), paused)
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
	s.ShiftClock(61 * time.Second) // working for alert_clear_s
	sweep(t, s)
	if _, found := liveAlert(t, s, model.AlertDevice, "大屏/voice"); found {
		t.Fatal("an ended, acknowledged alert is still in the snapshot")
	}
}
