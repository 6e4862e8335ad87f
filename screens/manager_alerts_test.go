package screens

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2/test"

	"jiaohao/model"
)

// visibleAlerts are the texts of the alert rows on screen.
func visibleAlerts(l *alertList) []string {
	var out []string
	for _, r := range l.rows {
		if r.box.Visible() {
			out = append(out, r.text.Text)
		}
	}
	return out
}

// The monitor lists each alert once, sounds once per new alert (a device
// that keeps failing is one alert and one sound), and the manager's
// acknowledgement is recorded with who. An acknowledged alert that still
// goes on leaves the list to answer for the smaller "still going" line, so
// that list empties once everything is answered.
func TestManagerAlertsSoundOnceAndAcknowledge(t *testing.T) {
	st := newStore(t)
	if err := st.SetSetting(context.Background(), "alert_clear_s", "0"); err != nil { // a recovery ends its alert at once
		t.Fatal(err)
	}
	w := newTestWindow(t, 1024, 768)
	var sounds atomic.Int32
	deps := ManagerDeps{Sound: func() { sounds.Add(1) }}
	m := build(t, func(ctx context.Context) *Manager {
		return NewManager(model.WithActor(ctx, "经理"), w, st, deps)
	})
	waitLoaded(t, m.Loaded())
	al := m.mon.alerts
	waitFor(t, "no alerts", func() bool { return al.none.Visible() && len(visibleAlerts(al)) == 0 && !al.ongoing.Visible() })

	kiosk := model.WithActor(context.Background(), "取号机1")
	if err := st.ReportDevice(kiosk, "printer", "缺纸"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the printer alert", func() bool {
		v := visibleAlerts(al)
		return len(v) == 1 && strings.Contains(v[0], "取号机1 的打印机故障：缺纸") && al.rows[0].ack.Visible() && !al.none.Visible()
	})
	if err := st.ReportDevice(kiosk, "printer", "卡纸"); err != nil { // the same occurrence
		t.Fatal(err)
	}
	if err := st.ReportDevice(model.WithActor(context.Background(), "大屏"), "voice", "没有语音引擎"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "two alerts, the newest first", func() bool {
		v := visibleAlerts(al)
		return len(v) == 2 && strings.Contains(v[0], "大屏") && strings.Contains(v[1], "取号机1")
	})
	if n := sounds.Load(); n != 2 {
		t.Fatalf("%d sounds for two alerts", n)
	}

	WithUI(func() { test.Tap(al.rows[1].ack) })
	waitFor(t, "the printer alert acknowledged, still going", func() bool {
		v := visibleAlerts(al)
		return len(v) == 1 && strings.Contains(v[0], "大屏") && al.rows[0].ack.Visible() && al.ongoing.Visible() &&
			strings.Contains(al.ongoing.Text, "已确认、仍在持续（1 条）") && strings.Contains(al.ongoing.Text, "取号机1") && strings.Contains(al.ongoing.Text, "经理 于")
	})
	snap, err := st.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var printer, voice model.Alert
	for _, a := range snap.Alerts {
		switch a.Device {
		case "printer":
			printer = a
		case "voice":
			voice = a
		}
	}
	if printer.AckBy != "经理" || printer.AckAt == nil {
		t.Fatalf("stored alert %+v, want acknowledged by 经理", printer)
	}

	// The printer works again: acknowledged and ended, it goes altogether.
	if err := st.ReportDevice(kiosk, "printer", ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "only the voice alert left", func() bool {
		v := visibleAlerts(al)
		return len(v) == 1 && strings.Contains(v[0], "大屏") && !al.ongoing.Visible()
	})
	// Acknowledged on another PC while this manager taps it: the tap gets
	// the sentence, not a second acknowledgement, and the list to answer
	// empties though the voice still fails.
	WithUI(func() {
		if _, err := st.AckAlert(model.WithActor(context.Background(), "副经理"), voice.ID); err != nil {
			t.Error(err)
		}
		al.acknowledge(0)
	})
	waitFor(t, "the refusal", func() bool { return al.msg.Visible() && strings.Contains(al.msg.Text, "已于") })
	waitFor(t, "nothing left to answer", func() bool {
		return len(visibleAlerts(al)) == 0 && al.none.Visible() && al.ongoing.Visible() &&
			strings.Contains(al.ongoing.Text, "大屏") && strings.Contains(al.ongoing.Text, "副经理 于")
	})
	if n := sounds.Load(); n != 2 {
		t.Fatalf("%d sounds, want still 2", n)
	}
}

// The monitor's health warnings use the branch's thresholds: a lower
// alert_waiting warns of a shorter queue, once the settings reload.
func TestHealthWarningsFollowTheSettings(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1024, 768)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	take(t, st, "A", 3)
	waitFor(t, "3 waiting, under the default 20", func() bool {
		return m.snap.Services[0].Waiting == 3 && labelsOf(m.mon.warn) == "运行正常"
	})
	if err := st.SetSetting(context.Background(), "alert_waiting", "2"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the idle-window warning at 3 waiting", func() bool {
		return strings.Contains(labelsOf(m.mon.warn), "有 3 人等候")
	})
}
