package screens

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// healthDesk is the host's check as the manager's card sees it: "" is
// the last closed day, and the last check is that day's.
type healthDesk struct {
	mu     sync.Mutex
	closed string                       // the last closed business day
	checks map[string]model.HealthCheck // by day
	asked  []string
}

func (d *healthDesk) LastHealthCheck(context.Context) (model.HealthCheck, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.checks[d.closed]
	if !ok {
		return model.HealthCheck{}, model.Errorf(model.ENotFound, "尚未做过健康检查 (no health check yet)")
	}
	return c, nil
}

func (d *healthDesk) RunHealthCheck(_ context.Context, date string) (model.HealthCheck, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.asked = append(d.asked, date)
	if date == "" {
		date = d.closed
	}
	c := model.HealthCheck{Date: date, Host: "host-pc", Dir: "/srv/health", Taken: 80, Flagged: false}
	d.checks[date] = c
	return c, nil
}

var flaggedDay = model.HealthCheck{Date: "2026-11-02", Host: "host-pc", Dir: "/srv/health", Taken: 90, Stuck: 2,
	PassedOver: []string{"B"}, Flagged: true}

// The morning look: the reports page shows the last check, flagged in red
// with why and where the files are. "Check now" with the page's dates
// untouched checks the last closed day on the host (not today's, still
// open); that day found fine ends the banner. A fine check of another,
// older day the manager picked leaves the banner of the last day.
func TestManagerSeesTheLastHealthCheck(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1024, 768)
	desk := &healthDesk{closed: "2026-11-02", checks: map[string]model.HealthCheck{"2026-11-02": flaggedDay}}
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

	// An older day picked and found fine: the last closed day's flag stays.
	older := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	WithUI(func() { m.reports.from.SetDate(&older); test.Tap(card.run) })
	waitFor(t, "older day checked", func() bool { return strings.HasPrefix(card.status.Text, "2026-11-01 正常") })
	waitFor(t, "banner reloaded", func() bool {
		desk.mu.Lock()
		defer desk.mu.Unlock()
		return len(desk.asked) == 1
	})
	WithUI(func() { shown = card.banner.Visible() })
	if !shown {
		t.Fatal("a fine check of an older day hid the last closed day's flag")
	}

	// The dates as filled in: the last closed day is checked, and fine.
	filled, _ := time.Parse(time.DateOnly, m.reports.filled)
	WithUI(func() { m.reports.from.SetDate(&filled); test.Tap(card.run) })
	waitFor(t, "last closed day checked", func() bool { return strings.HasPrefix(card.status.Text, "2026-11-02 正常") })
	waitFor(t, "banner gone", func() bool { return !card.banner.Visible() })
	desk.mu.Lock()
	defer desk.mu.Unlock()
	if len(desk.asked) != 2 || desk.asked[0] != "2026-11-01" || desk.asked[1] != "" {
		t.Fatalf("the host was asked %v, want 2026-11-01 then the last closed day", desk.asked)
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

// When the host records a check (its "health" event), the manager's card
// and banner read it again at once, without waiting for a fresh snapshot.
func TestHealthCardReloadsWhenACheckIsRecorded(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1024, 768)
	desk := &healthDesk{closed: "2026-11-02", checks: map[string]model.HealthCheck{}}
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{Health: desk}) })
	waitLoaded(t, m.Loaded())
	card := m.reports.health
	waitFor(t, "no check yet", func() bool { return card.status.Text == "尚未做过健康检查" })
	desk.mu.Lock()
	desk.checks["2026-11-02"] = flaggedDay
	desk.mu.Unlock()
	if err := st.RecordHealthCheck(context.Background(), flaggedDay, ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the recorded check shown", func() bool {
		return strings.HasPrefix(card.status.Text, "2026-11-02 需要处理") && card.banner.Visible()
	})
}
