package screens

import (
	"context"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// healthDesk is the host's check as the manager's card sees it.
type healthDesk struct {
	mu    sync.Mutex
	last  *model.HealthCheck
	asked []string
}

func (d *healthDesk) LastHealthCheck(context.Context) (model.HealthCheck, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.last == nil {
		return model.HealthCheck{}, model.Errorf(model.ENotFound, "尚未做过健康检查 (no health check yet)")
	}
	return *d.last, nil
}

func (d *healthDesk) RunHealthCheck(_ context.Context, date string) (model.HealthCheck, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.asked = append(d.asked, date)
	c := model.HealthCheck{Date: date, Host: "host-pc", Dir: "/srv/health", Taken: 80, Flagged: false}
	d.last = &c
	return c, nil
}

// The morning look: the reports page shows the last check, flagged in red
// with why and where the files are; "check now" runs the page's day on
// the host and shows the new verdict.
func TestManagerSeesTheLastHealthCheck(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1024, 768)
	desk := &healthDesk{last: &model.HealthCheck{Date: "2026-11-02", Host: "host-pc", Dir: "/srv/health", Taken: 90, Stuck: 2,
		PassedOver: []string{"B"}, Flagged: true}}
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{Health: desk}) })
	waitLoaded(t, m.Loaded())
	card := m.reports.health
	waitFor(t, "last check shown", func() bool { return strings.HasPrefix(card.status.Text, "2026-11-02 需要处理") })
	var status, where string
	var imp widget.Importance
	WithUI(func() { status, where, imp = card.status.Text, card.where.Text, card.status.Importance })
	if !strings.Contains(status, "2 个号码停留在已叫号或办理中") || !strings.Contains(status, "过号率超标 B") || imp != widget.DangerImportance {
		t.Fatalf("flagged check shown as %q (importance %v)", status, imp)
	}
	if !strings.Contains(where, "host-pc") || !strings.Contains(where, "jiaohao-health-2026-11-02.pdf") {
		t.Fatalf("files shown as %q", where)
	}
	var banner string
	var shown bool
	WithUI(func() { banner, shown = card.banner.Text, card.banner.Visible() })
	if !shown || !strings.Contains(banner, "2026-11-02 健康检查需要处理") {
		t.Fatalf("the banner over every page: %q, shown %v", banner, shown)
	}
	waitFor(t, "report dates", func() bool { return m.reports.from.Date != nil })
	var day string
	WithUI(func() { day = m.reports.firstDate(); test.Tap(card.run) })
	waitFor(t, "check run", func() bool { return strings.HasPrefix(card.status.Text, day+" 正常") })
	WithUI(func() { shown = card.banner.Visible() })
	if shown {
		t.Fatal("the banner stays after a fine check")
	}
	desk.mu.Lock()
	defer desk.mu.Unlock()
	if len(desk.asked) != 1 || desk.asked[0] != day {
		t.Fatalf("the host was asked %v, want %s", desk.asked, day)
	}
}

// Without the check (a PC that cannot reach it) the card says so and its
// button does nothing.
func TestHealthCardWithoutTheCheck(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1024, 768)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	var text string
	var disabled bool
	WithUI(func() { text, disabled = m.reports.health.status.Text, m.reports.health.run.Disabled() })
	if text != "本机不能做健康检查" || !disabled {
		t.Fatalf("card %q, disabled %v", text, disabled)
	}
}
