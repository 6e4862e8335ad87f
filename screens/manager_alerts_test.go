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
// acknowledgement is recorded with who and shown on the row.
func TestManagerAlertsSoundOnceAndAcknowledge(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1024, 768)
	var sounds atomic.Int32
	deps := ManagerDeps{Sound: func() { sounds.Add(1) }}
	m := build(t, func(ctx context.Context) *Manager {
		return NewManager(model.WithActor(ctx, "经理"), w, st, deps)
	})
	waitLoaded(t, m.Loaded())
	al := m.mon.alerts
	waitFor(t, "no alerts", func() bool { return al.none.Visible() && len(visibleAlerts(al)) == 0 })

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
	waitFor(t, "the printer alert acknowledged", func() bool {
		v := visibleAlerts(al)
		return len(v) == 2 && strings.Contains(v[1], "经理 于") && !al.rows[1].ack.Visible() && al.rows[0].ack.Visible()
	})
	snap, err := st.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var printer model.Alert
	for _, a := range snap.Alerts {
		if a.Device == "printer" {
			printer = a
		}
	}
	if printer.AckBy != "经理" || printer.AckAt == nil {
		t.Fatalf("stored alert %+v, want acknowledged by 经理", printer)
	}

	// The printer works again: acknowledged and ended, the row goes.
	if err := st.ReportDevice(kiosk, "printer", ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "only the voice alert left", func() bool {
		v := visibleAlerts(al)
		return len(v) == 1 && strings.Contains(v[0], "大屏")
	})
	// Acknowledged on another PC first: the row follows, and a tap that
	// crossed it gets the sentence, not a second acknowledgement.
	if _, err := st.AckAlert(model.WithActor(context.Background(), "副经理"), snap.Alerts[0].ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "acknowledged elsewhere", func() bool {
		v := visibleAlerts(al)
		return len(v) == 1 && strings.Contains(v[0], "副经理 于") && !al.rows[0].ack.Visible()
	})
	WithUI(func() { al.acknowledge(0) })
	waitFor(t, "the refusal", func() bool { return al.msg.Visible() && strings.Contains(al.msg.Text, "已于") })
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
