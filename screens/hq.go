package screens

import (
	"context"
	"fmt"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// HQ is head office's overview (总行/总部): one line per branch of the
// database (code, name, waiting, serving, open windows, longest wait,
// alerts, device faults) and their totals, live. Lines that need someone
// to look (model's Attention: an alert, a failing device, a wait over
// model.LongWait, a line the host cannot read now) are red and come
// first, the rest by branch code. While the link to the host is lost a
// banner says so and the lines, as last received, turn grey. It only
// watches: head office acts on no branch.
type HQ struct {
	ctx    context.Context
	wg     sync.WaitGroup
	loaded chan struct{}
	once   sync.Once

	lines   map[string]hqReceived // by branch code
	down    bool
	downAt  time.Time              // when the link was lost: the lines age no further
	refusal string                 // why the host turned this PC away, until it lets it in
	shown   []model.BranchOverview // on screen now, in order

	link, empty *widget.Label
	tools       *fyne.Container
	report      *hqReport // head office's report form, once AddReport ran
	rows        *fyne.Container
	rowUI       []*hqRow
	total       *hqRow
	content     fyne.CanvasObject
}

// hqReceived is a branch's line and when it arrived: its longest wait
// grows from then until the next one.
type hqReceived struct {
	o   model.BranchOverview
	got time.Time
}

// hqNow is the screen's clock, by which lines age; the tests stop it.
var hqNow = time.Now

// NewHQ builds head office's overview in w and follows src until ctx ends.
func NewHQ(ctx context.Context, w fyne.Window, src model.HeadOffice) *HQ {
	h := &HQ{ctx: ctx, loaded: make(chan struct{}), lines: map[string]hqReceived{}}
	h.build()
	w.SetContent(h.content)
	h.redraw()
	h.wg.Go(func() { h.follow(ctx, src) })
	// Between updates the longest waits still grow, by the minute.
	h.wg.Go(func() { every(ctx, 5*time.Second, h.redraw, nil) })
	return h
}

// Loaded is closed once the first full set of lines is on screen.
func (h *HQ) Loaded() <-chan struct{} { return h.loaded }

// Wait returns once the screen's goroutines have stopped.
func (h *HQ) Wait() { h.wg.Wait() }

// Content is the screen's root object.
func (h *HQ) Content() fyne.CanvasObject { return h.content }

// AddTool puts a button in the title row: head office's actions (the
// report over many branches) plug in here. Call it on the UI goroutine.
func (h *HQ) AddTool(o fyne.CanvasObject) {
	h.tools.Add(o)
	h.tools.Refresh()
}

func (h *HQ) build() {
	title := widget.NewLabelWithStyle(tr("hq.title"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	h.tools = container.NewHBox()
	h.link = widget.NewLabel("")
	h.link.Importance = widget.DangerImportance
	h.link.Wrapping = fyne.TextWrapWord
	h.empty = widget.NewLabel(tr("hq.empty"))
	head := newHQRow()
	head.set([8]string{tr("hq.code"), tr("hq.name"), tr("hq.waiting"), tr("hq.serving"), tr("hq.open"),
		tr("hq.longest"), tr("hq.alerts"), tr("hq.faults")}, widget.MediumImportance, true)
	h.rows = container.NewVBox()
	h.total = newHQRow()
	hint := widget.NewLabel(tr("hq.hint", kv("M", int(model.LongWait/time.Minute))))
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	top := container.NewVBox(container.NewBorder(nil, nil, title, h.tools), h.link, head.box, widget.NewSeparator())
	bottom := container.NewVBox(widget.NewSeparator(), h.total.box, hint)
	h.content = container.NewBorder(top, bottom, nil, nil, container.NewVScroll(container.NewVBox(h.empty, h.rows)))
}

// follow watches src, again after a refusal (shown until it passes).
func (h *HQ) follow(ctx context.Context, src model.HeadOffice) {
	for ctx.Err() == nil {
		ch, err := src.WatchOverview(ctx)
		if err != nil {
			msg := model.ErrorMessage(err)
			onUI(func() { h.refused(msg) })
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Second):
			}
			continue
		}
		for u := range ch {
			onUI(func() { h.apply(u) })
		}
	}
}

// refused shows why the host turned this PC away.
func (h *HQ) refused(msg string) {
	h.lost()
	h.refusal = msg
	h.redraw()
}

// lost notes that the link is down, and since when.
func (h *HQ) lost() {
	if !h.down {
		h.down, h.downAt = true, hqNow()
	}
}

// apply takes one update on the UI goroutine.
func (h *HQ) apply(u model.OverviewUpdate) {
	if u.Down {
		h.lost()
		h.redraw()
		return
	}
	if u.Full {
		h.lines = map[string]hqReceived{}
	}
	h.down, h.refusal = false, ""
	now := hqNow()
	for _, o := range u.Lines {
		h.lines[o.Code] = hqReceived{o: o, got: now}
	}
	h.redraw()
	if u.Full {
		h.once.Do(func() { close(h.loaded) })
	}
}

// redraw shows the lines as of now: longest waits grown since they came,
// trouble first. While the link is lost they are as of its loss: a
// customer waiting then may have been called since.
func (h *HQ) redraw() {
	lines := make([]model.BranchOverview, 0, len(h.lines))
	now := hqNow()
	if h.down {
		now = h.downAt
	}
	for _, r := range h.lines {
		o := r.o
		if !o.Stale && o.Waiting > 0 && o.LongestWait > 0 && now.After(r.got) {
			o.LongestWait += now.Sub(r.got)
		}
		lines = append(lines, o)
	}
	model.SortOverview(lines)
	h.shown = lines
	for len(h.rowUI) < len(lines) {
		r := newHQRow()
		h.rowUI = append(h.rowUI, r)
		h.rows.Add(r.box)
	}
	for i, r := range h.rowUI {
		if i >= len(lines) {
			r.box.Hide()
			continue
		}
		o := lines[i]
		imp := widget.MediumImportance
		switch {
		case h.down:
			imp = widget.LowImportance
		case o.Attention():
			imp = widget.DangerImportance
		}
		name := o.Name
		if o.Stale {
			name = tr("hq.stale", kv("Name", o.Name))
		}
		r.set(hqCells(o.Code, name, o), imp, false)
		r.box.Show()
	}
	total := model.OverviewTotal(lines)
	imp := widget.MediumImportance
	if h.down {
		imp = widget.LowImportance
	}
	h.total.set(hqCells(tr("hq.total"), tr("hq.branches", kv("N", len(lines))), total), imp, true)
	if h.down {
		text := tr("hq.down")
		if h.refusal != "" {
			text = tr("hq.refused", kv("Err", h.refusal))
		}
		h.link.SetText(text)
		h.link.Show()
	} else {
		h.link.Hide()
	}
	if len(lines) == 0 {
		h.empty.Show()
	} else {
		h.empty.Hide()
	}
	h.rows.Refresh()
}

// hqCells are a line's eight cells.
func hqCells(code, name string, o model.BranchOverview) [8]string {
	return [8]string{code, name, fmt.Sprint(o.Waiting), fmt.Sprint(o.Serving), fmt.Sprint(o.OpenWindows),
		waitText(o.LongestWait), fmt.Sprint(o.Alerts), fmt.Sprint(o.Faults)}
}

// waitText is a longest wait in whole minutes; nobody waiting is a dash.
func waitText(d time.Duration) string {
	switch {
	case d <= 0:
		return "—"
	case d < time.Minute:
		return tr("hq.under_minute")
	}
	return tr("hq.minutes", kv("M", int(d/time.Minute)))
}

// hqRow is one line of the table, its labels reused by each redraw.
type hqRow struct {
	cells [8]*widget.Label
	box   *fyne.Container
}

func newHQRow() *hqRow {
	r := &hqRow{box: container.NewGridWithColumns(8)}
	for i := range r.cells {
		r.cells[i] = widget.NewLabel("")
		r.cells[i].Truncation = fyne.TextTruncateEllipsis
		r.box.Add(r.cells[i])
	}
	return r
}

func (r *hqRow) set(texts [8]string, imp widget.Importance, bold bool) {
	for i, l := range r.cells {
		if l.Text == texts[i] && l.Importance == imp && l.TextStyle.Bold == bold {
			continue
		}
		l.Text, l.Importance, l.TextStyle.Bold = texts[i], imp, bold
		l.Refresh()
	}
}
