package screens

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

func labelsOf(l *lines) string {
	var out []string
	for _, o := range l.box.Objects {
		if lb := o.(*widget.Label); lb.Visible() {
			out = append(out, lb.Text)
		}
	}
	return strings.Join(out, "\n")
}

func TestManagerWarnsIdleWindowsAndPassedRatio(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1024, 768)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	waitFor(t, "healthy", func() bool { return labelsOf(m.mon.warn) == "运行正常" })

	take(t, st, "A", 21)
	waitFor(t, "idle-window warning", func() bool {
		return strings.Contains(labelsOf(m.mon.warn), "有 21 人等候，但 1 号窗口空闲")
	})

	ctx := context.Background()
	tk, err := st.CallNext(ctx, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	for range 3 { // 4 passed of 22 issued: 18%
		if _, err := st.Pass(ctx, tk.ID, 1); err != nil {
			t.Fatal(err)
		}
		if tk, err = st.CallNext(ctx, 1, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Pass(ctx, tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "passed-ratio warning", func() bool {
		return strings.Contains(labelsOf(m.mon.warn), "今日约 21 个号码中 4 个过号（19%")
	})
}

func TestManagerSavesSettingsTerminalsAndReports(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1024, 768)
	var mu sync.Mutex
	var opened []string
	deps := ManagerDeps{
		Terminals: st,
		NewToken: func() (string, string, error) {
			h := sha256.Sum256([]byte("jh_test"))
			return "jh_test", hex.EncodeToString(h[:]), nil
		},
		Report: func(_ context.Context, from, to string) (string, error) {
			return "/tmp/report-" + from + "-" + to + ".pdf", nil
		},
		Open: func(p string) error { mu.Lock(); defer mu.Unlock(); opened = append(opened, p); return nil },
	}
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, deps) })
	waitLoaded(t, m.Loaded())
	waitFor(t, "settings loaded", func() bool { return m.settings.entries["business_hours"].Text != "" })

	WithUI(func() {
		m.settings.entries["call_timeout_s"].SetText("90")
		test.Tap(m.settings.saveBtn)
	})
	waitFor(t, "setting saved", func() bool { return m.settings.msg.Text == "已保存" })
	if got, err := st.Settings(context.Background()); err != nil || got.CallTimeout != 90*time.Second {
		t.Fatalf("call timeout in store = %v (%v)", got.CallTimeout, err)
	}
	waitFor(t, "the display page loaded", func() bool { return m.display.layout.Selected != "" })
	WithUI(func() {
		m.display.notice.SetText("今日对公业务办理至 16:00")
		test.Tap(m.display.saveBtn)
	})
	waitFor(t, "notice saved", func() bool { return m.display.msg.Text == "已保存" })
	got, err := st.Settings(context.Background())
	if err != nil || got.Notice != "今日对公业务办理至 16:00" {
		t.Fatalf("notice in store = %q (%v)", got.Notice, err)
	}

	WithUI(func() {
		m.terms.name.SetText("大堂屏")
		m.terms.role.SetSelected(textOf(roleLabels(), "screen"))
		test.Tap(m.terms.create)
	})
	waitFor(t, "terminal listed", func() bool { return len(m.terms.rows.Objects) == 1 })
	terms, err := st.Terminals(context.Background())
	if err != nil || len(terms) != 1 || terms[0].Name != "大堂屏" || terms[0].Role != "screen" {
		t.Fatalf("terminals in store = %+v (%v)", terms, err)
	}

	waitFor(t, "report dates", func() bool { return m.reports.from.Date != nil && m.reports.to.Date != nil })
	WithUI(func() { test.Tap(m.reports.run) })
	waitFor(t, "report written", func() bool { return strings.HasPrefix(m.reports.msg.Text, "已生成") })
	mu.Lock()
	defer mu.Unlock()
	if len(opened) != 1 || !strings.HasSuffix(opened[0], ".pdf") {
		t.Fatalf("opened %v, want one PDF", opened)
	}
}

// A failing device of any PC is a health warning in the manager's monitor.
func TestHealthWarnsOfDeviceFaults(t *testing.T) {
	s := model.Snapshot{Faults: []model.Device{{Terminal: "kiosk@pc1", Kind: "printer", Fault: "缺纸"}}}
	got := healthWarnings(s, model.ParseSettings(nil).Alerts)
	if len(got) != 1 || !strings.Contains(got[0], "kiosk@pc1") || !strings.Contains(got[0], "缺纸") || !strings.Contains(got[0], tr("device.printer")) {
		t.Fatalf("warnings %q", got)
	}
}
