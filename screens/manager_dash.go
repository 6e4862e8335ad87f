package screens

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// dayLoadTimeout bounds one rebuild of the day from the event log.
const dayLoadTimeout = time.Minute

// dashTiles are the dashboard's figures, in the order shown.
var dashTiles = []string{"taken", "served", "waiting", "longest", "avg_wait", "passed", "windows", "satisfied"}

// dashboard is the top of the manager's monitor: the day's figures as
// tiles and the waiting of each service across the day. The day is
// rebuilt from the event log after every reload (a start at noon, a
// reconnect) and then follows the live events; its memory is the day's.
type dashboard struct {
	m       *Manager
	board   *model.DayBoard // nil until the day is rebuilt
	gen     int             // the rebuild in flight; an older one's answer is dropped
	loading bool            // a rebuild is in flight
	pending []model.Event   // live events that came while the day was being rebuilt
	snap    model.Snapshot
	asOf    time.Time // the time the figures were computed at

	values  map[string]*canvas.Text
	chart   *waitChart
	status  *widget.Label
	content fyne.CanvasObject
}

func newDashboard(m *Manager) *dashboard {
	d := &dashboard{m: m, values: map[string]*canvas.Text{}, chart: newWaitChart(), status: widget.NewLabel("")}
	grid := container.NewGridWithColumns(4)
	for _, k := range dashTiles {
		v := bigText("—", 34, colBrand)
		d.values[k] = v
		caption := widget.NewLabel(tr("dash." + k))
		caption.Alignment = fyne.TextAlignCenter
		grid.Add(widget.NewCard("", "", container.NewVBox(caption, v)))
	}
	d.status.Importance = widget.LowImportance
	chart := widget.NewCard(tr("dash.chart"), "", d.chart)
	d.content = container.NewVBox(grid, chart, d.status)
	return d
}

// show takes a change: a reload rebuilds the day from the event log,
// other changes fold their events in.
func (d *dashboard) show(u model.Change) {
	d.snap = u.Snapshot
	switch {
	case u.Reloaded:
		d.rebuild(u.Snapshot)
	case d.board != nil:
		for _, ev := range u.Events {
			d.board.Fold(ev)
		}
	case d.loading:
		d.pending = append(d.pending, u.Events...)
	}
	d.render()
}

// rebuild reads the day's events up to s.Version off the UI goroutine.
func (d *dashboard) rebuild(s model.Snapshot) {
	d.gen++
	gen := d.gen
	d.board, d.pending, d.loading = nil, nil, true
	var got *model.DayBoard
	// A long day over a peer link is many pages of events: more than one
	// button's bound.
	d.m.asyncFor(dayLoadTimeout, func(ctx context.Context) error {
		b, err := loadDay(ctx, d.m.st, s)
		got = b
		return err
	}, func(err error) {
		if gen != d.gen {
			return // a newer reload is on its way
		}
		d.loading = false
		if err != nil {
			d.pending = nil // no board to fold them into until the next reload
			d.status.SetText(tr("dash.no_history") + " " + errText(err))
			d.render()
			return
		}
		d.board = got
		for _, ev := range d.pending {
			d.board.Fold(ev) // those up to the snapshot are folded already
		}
		d.pending = nil
		d.render()
	})
}

// loadDay is the board of s's business date, from the branch's calendar
// and business hours.
func loadDay(ctx context.Context, st model.Store, s model.Snapshot) (*model.DayBoard, error) {
	set, err := st.Settings(ctx)
	if err != nil {
		return nil, err
	}
	loc := time.Local
	if l, err := time.LoadLocation(s.TimeZone); err == nil && s.TimeZone != "" {
		loc = l
	}
	from, _, err := set.Calendar(loc).Bounds(s.BusinessDate)
	if err != nil {
		return nil, err
	}
	open, closeAt, err := model.ChartHours(s.BusinessDate, loc, set)
	if err != nil {
		return nil, err
	}
	return model.LoadDayBoard(ctx, st, s, from, open, closeAt)
}

// now is the time the figures are for: the store's clock, never before
// the last event seen, so a wait is never negative.
func (d *dashboard) now() time.Time {
	now := d.m.clock.now()
	if d.snap.Now.After(now) {
		now = d.snap.Now
	}
	return now
}

// render writes the tiles and the chart from the board and the snapshot.
func (d *dashboard) render() {
	if d.board == nil {
		d.chart.set(nil, d.snap)
		if d.gen > 0 && !d.loading { // a snapshot came, its day could not be rebuilt
			d.renderSnapshotOnly()
		}
		return
	}
	d.asOf = d.now()
	d.board.Advance(d.asOf)
	for k, v := range dashTexts(d.board.Figures(d.snap, d.asOf)) {
		setText(d.values[k], v)
	}
	d.chart.set(d.board, d.snap)
	d.status.SetText(tr("dash.as_of", kv("Time", d.m.clock.in(d.asOf).Format("15:04:05"))))
}

// renderSnapshotOnly writes the tiles the snapshot gives exactly (taken,
// waiting, passed, windows) when the day could not be rebuilt, and dashes
// for those only the event log gives: the tiles never show the figures of
// before the reload as if they were now.
func (d *dashboard) renderSnapshotOnly() {
	empty := model.NewDayBoard(d.snap.BusinessDate, d.snap.Now, d.snap.Now)
	texts := dashTexts(empty.Figures(d.snap, d.now()))
	texts["served"], texts["longest"], texts["avg_wait"] = "—", "—", "—"
	for k, v := range texts {
		setText(d.values[k], v)
	}
}

// dashTexts are the tiles' texts for f.
func dashTexts(f model.DayFigures) map[string]string {
	out := map[string]string{
		"taken":    fmt.Sprint(f.Taken),
		"served":   fmt.Sprint(f.Served),
		"waiting":  fmt.Sprint(f.Waiting),
		"longest":  "—",
		"avg_wait": "—",
		"passed":   "—",
		"windows":  fmt.Sprintf("%d / %d", f.WindowsOpen, f.Windows),
		// The share of 满意 and 非常满意 among today's ratings.
		"satisfied": "—",
	}
	if f.Rated.Count() > 0 {
		out["satisfied"] = fmt.Sprintf("%.1f%%", f.Rated.Satisfied()*100)
	}
	if f.Waiting > 0 {
		out["longest"] = model.ClockText(f.LongestWait)
	}
	if f.Called > 0 {
		out["avg_wait"] = model.ClockText(f.AvgWait)
	}
	if pct, ok := f.PassedPct(); ok {
		out["passed"] = fmt.Sprintf("%.1f%%", pct)
	}
	return out
}

// tick keeps the waits and the chart moving between events.
func (d *dashboard) tick(ctx context.Context) { every(ctx, 15*time.Second, d.render, nil) }
