package screens

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"jiaohao/model"
)

// clockOf writes d as m:ss (h:mm:ss from an hour), on its own here so the
// test does not read the figures through the code under test.
func clockOf(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// expectedTiles recomputes the dashboard from the tickets themselves, as
// the store has them now, and the windows, at the instant asOf.
func expectedTiles(t *testing.T, st model.Store, ids []int64, asOf time.Time) map[string]string {
	t.Helper()
	ctx := context.Background()
	var taken, served, waiting, passed, called int
	var longest, waitSum time.Duration
	for _, id := range ids {
		tk, err := st.Ticket(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		taken++
		switch tk.Status {
		case model.Done:
			served++
		case model.Waiting:
			waiting++
			longest = max(longest, asOf.Sub(tk.IssuedAt))
		case model.Passed:
			passed++
		}
		if tk.CalledAt != nil { // each of these tickets was called once at most
			called++
			waitSum += tk.CalledAt.Sub(tk.IssuedAt)
		}
	}
	ws, err := st.Windows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	open := 0
	for _, w := range ws {
		if w.Status == model.WindowOpen {
			open++
		}
	}
	want := map[string]string{"taken": fmt.Sprint(taken), "served": fmt.Sprint(served), "waiting": fmt.Sprint(waiting),
		"longest": "—", "avg_wait": "—", "passed": "—", "windows": fmt.Sprintf("%d / %d", open, len(ws))}
	if waiting > 0 {
		want["longest"] = clockOf(longest)
	}
	if called > 0 {
		want["avg_wait"] = clockOf(waitSum / time.Duration(called))
	}
	if taken > 0 {
		want["passed"] = fmt.Sprintf("%.1f%%", float64(passed)*100/float64(taken))
	}
	return want
}

// tilesMatch reports whether the tiles show what the tickets say, on the
// UI goroutine; diff says what differs.
func tilesMatch(t *testing.T, st model.Store, m *Manager, ids []int64, diff *string) bool {
	d := m.mon.dash
	if d.board == nil {
		*diff = "the day is not rebuilt yet"
		return false
	}
	want := expectedTiles(t, st, ids, d.asOf)
	for k, v := range want {
		if got := d.values[k].Text; got != v {
			*diff = fmt.Sprintf("tile %s shows %q, the tickets say %q", k, got, v)
			return false
		}
	}
	return true
}

func ids(ts []model.Ticket) []int64 {
	var out []int64
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

func TestDashboardTilesEqualTheDayRecomputedFromItsTickets(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	// The morning before the manager's PC starts: only the event log has it.
	all := ids(append(take(t, st, "A", 4), take(t, st, "B", 2)...))
	tk, err := st.CallNext(ctx, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err = st.StartServing(ctx, tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	if _, err = st.Finish(ctx, tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	if tk, err = st.CallNext(ctx, 2, ""); err != nil {
		t.Fatal(err)
	}
	if _, err = st.Pass(ctx, tk.ID, 2); err != nil {
		t.Fatal(err)
	}
	if _, err = st.SetWindowStatus(ctx, 4, model.WindowPaused); err != nil {
		t.Fatal(err)
	}

	link := &flaky{Store: st}
	w := newTestWindow(t, 1280, 900)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, link, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	var diff string
	waitFor(t, "tiles rebuilt from the event log", func() bool { return tilesMatch(t, st, m, all, &diff) })

	// Live: more of the day through the event stream.
	all = append(all, ids(take(t, st, "B", 3))...)
	if tk, err = st.CallNext(ctx, 3, ""); err != nil {
		t.Fatal(err)
	}
	if _, err = st.StartServing(ctx, tk.ID, 3); err != nil {
		t.Fatal(err)
	}
	if _, err = st.Finish(ctx, tk.ID, 3); err != nil {
		t.Fatal(err)
	}
	if tk, err = st.CallNext(ctx, 1, ""); err != nil {
		t.Fatal(err)
	}
	if _, err = st.Pass(ctx, tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "tiles following live events: "+diff, func() bool { return tilesMatch(t, st, m, all, &diff) })

	// A cut link and a reload: the day is rebuilt again, not started over.
	reloads := m.Reloads()
	link.cut(true)
	if _, err = st.CallNext(ctx, 2, ""); err != nil { // while this PC is cut off
		t.Fatal(err)
	}
	link.cut(false)
	waitFor(t, "a reload after the cut", func() bool { return m.Reloads() > reloads })
	waitFor(t, "tiles after the reconnect: "+diff, func() bool { return tilesMatch(t, st, m, all, &diff) })
}

// lastSegmentY is the height on the chart of the last point of a
// service's line (smaller is higher), and whether one is drawn.
func lastSegmentY(c *waitChart, code string) (float32, bool) {
	r, ok := test.WidgetRenderer(c).(*chartRenderer)
	if !ok {
		return 0, false
	}
	for i, l := range c.lines {
		if l.code != code {
			continue
		}
		var y float32
		found := false
		for _, ln := range r.segs[i] {
			if ln.Visible() {
				y, found = ln.Position2.Y, true
			}
		}
		return y, found
	}
	return 0, false
}

func TestDashboardChartFollowsLiveTakes(t *testing.T) {
	st := newStore(t)
	take(t, st, "A", 2)
	w := newTestWindow(t, 1280, 900)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	chart := m.mon.dash.chart
	var before float32
	waitFor(t, "A's line at 2", func() bool {
		y, ok := lastSegmentY(chart, "A")
		before = y
		return ok && chart.current("A") == 2
	})
	take(t, st, "A", 1)
	minute := 0 // the chart minute the third number came in
	waitFor(t, "A's current point raised to 3", func() bool {
		y, ok := lastSegmentY(chart, "A")
		minute = len(pointsOf(chart, "A")) - 1
		return ok && chart.current("A") == 3 && y < before
	})
	if _, err := st.CallNext(context.Background(), 1, "A"); err != nil {
		t.Fatal(err)
	}
	// The minute's point keeps its most, whether the call came within it
	// or a later minute began with 2; the count now is in the legend.
	waitFor(t, "A's legend after a call", func() bool {
		r := test.WidgetRenderer(chart).(*chartRenderer)
		pts := pointsOf(chart, "A")
		for i, l := range chart.lines {
			if l.code == "A" {
				return r.legend[i].Text == "A 个人业务 2" && len(pts) > minute && pts[minute] == 3 &&
					(len(pts)-1 == minute || pts[len(pts)-1] == 2)
			}
		}
		return false
	})
}

// pointsOf is a service's line on the chart, a point a minute.
func pointsOf(c *waitChart, code string) []int {
	for _, l := range c.lines {
		if l.code == code {
			return l.points
		}
	}
	return nil
}

// noLog is a store whose event log cannot be read while fail is set: the
// live stream still runs.
type noLog struct {
	model.Store
	fail atomic.Bool
}

func (n *noLog) EventsSince(ctx context.Context, since int64, limit int) ([]model.Event, error) {
	if n.fail.Load() {
		return nil, model.Errorf(model.EUnavailable, "event log unreadable")
	}
	return n.Store.EventsSince(ctx, since, limit)
}

// A day that cannot be rebuilt shows no figure of the day before the
// reload as if it were now: the snapshot's exact counts follow the live
// events, the ones only the log gives are dashes, and the live events are
// not kept for a rebuild that is not running.
func TestDashboardWithoutTheDayShowsNoStaleFigures(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	all := ids(take(t, st, "A", 2))
	link := &noLog{Store: st}
	w := newTestWindow(t, 1280, 900)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, link, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	var diff string
	waitFor(t, "tiles rebuilt from the event log", func() bool { return tilesMatch(t, st, m, all, &diff) })

	link.fail.Store(true)
	reloads := m.Reloads()
	if err := st.SetSetting(ctx, "notice", "欢迎"); err != nil { // a configuration change: every PC reloads
		t.Fatal(err)
	}
	waitFor(t, "the reload", func() bool { return m.Reloads() > reloads })
	d := m.mon.dash
	waitFor(t, "the rebuild refused", func() bool { return strings.HasPrefix(d.status.Text, tr("dash.no_history")) })
	all = append(all, ids(take(t, st, "A", 3))...)
	waitFor(t, "the snapshot's counts live, the log's dashed", func() bool {
		return d.values["taken"].Text == fmt.Sprint(len(all)) && d.values["waiting"].Text == fmt.Sprint(len(all)) &&
			d.values["served"].Text == "—" && d.values["longest"].Text == "—" && d.values["avg_wait"].Text == "—"
	})
	WithUI(func() {
		if len(d.pending) != 0 {
			t.Errorf("%d live events kept for a rebuild that failed", len(d.pending))
		}
	})
}

// Before the first snapshot the tiles know nothing: the clock's redraw
// must not write zeros a manager would read as an empty hall.
func TestDashboardBeforeTheFirstSnapshotShowsNoFigures(t *testing.T) {
	link := &flaky{Store: newStore(t)}
	link.cut(true)
	w := newTestWindow(t, 1280, 900)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, link, ManagerDeps{}) })
	WithUI(func() {
		d := m.mon.dash
		d.render() // what the 15-second tick does
		for _, k := range dashTiles {
			if got := d.values[k].Text; got != "—" {
				t.Errorf("tile %s shows %q before any snapshot, want —", k, got)
			}
		}
	})
}
