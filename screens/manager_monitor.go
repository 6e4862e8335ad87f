package screens

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// Health thresholds from seed 002 §5.2.
const (
	passedRatioWarn = 0.15 // passed tickets over the day's tickets
	idleQueueWarn   = 20   // waiting while a window sits idle
)

// monitor is the live page: warnings first, then each service's queue and
// each window's state.
type monitor struct {
	warn, svc, win *lines
	content        fyne.CanvasObject
}

func newMonitor() *monitor {
	m := &monitor{warn: newLines(), svc: newLines(), win: newLines()}
	card := func(key string, l *lines) fyne.CanvasObject { return widget.NewCard(tr(key), "", l.box) }
	m.content = container.NewVScroll(container.NewVBox(
		card("monitor.health", m.warn), card("monitor.queues", m.svc), card("monitor.windows", m.win)))
	return m
}

func (m *monitor) show(s model.Snapshot, warnings []string) {
	if len(warnings) == 0 {
		m.warn.set([]string{tr("monitor.healthy")}, widget.SuccessImportance)
	} else {
		m.warn.set(warnings, widget.DangerImportance)
	}
	var svc []string
	for _, c := range s.Services {
		state := ""
		if !c.Enabled {
			state = " · " + tr("monitor.disabled")
		}
		svc = append(svc, tr("monitor.queue_line", kv("Code", c.Code, "Name", c.Name, "N", c.Waiting))+state)
	}
	m.svc.set(svc, widget.MediumImportance)
	var win []string
	for _, w := range s.Windows {
		cur := tr("monitor.no_ticket")
		if w.Current != nil && held(*w.Current) {
			cur = fmt.Sprintf("%s (%s)", w.Current.Number, statusText(w.Current.Status))
		}
		name := w.Name
		if name == "" {
			name = tr("caller.window", kv("N", w.Number))
		}
		win = append(win, tr("monitor.window_line", kv("Name", name, "Status", windowStatusText(w.Status), "Current", cur)))
	}
	m.win.set(win, widget.MediumImportance)
	// Lines come and go: lay the page out again from the new sizes.
	m.content.Refresh()
}

// lines is a column of labels reused by index, so live updates do not
// rebuild widgets.
type lines struct {
	box *fyne.Container
}

func newLines() *lines { return &lines{box: container.NewVBox()} }

func (l *lines) set(texts []string, imp widget.Importance) {
	for len(l.box.Objects) < len(texts) {
		lb := widget.NewLabel("")
		lb.Wrapping = fyne.TextWrapWord
		l.box.Add(lb)
	}
	for i, o := range l.box.Objects {
		lb := o.(*widget.Label)
		if i >= len(texts) {
			lb.Hide()
			continue
		}
		if lb.Text != texts[i] || lb.Importance != imp || !lb.Visible() {
			lb.Importance = imp
			lb.Text = texts[i]
			lb.Show()
			lb.Refresh()
		}
	}
}

// issueTracker estimates the day's tickets per service from the highest
// sequence number seen: the snapshot carries the live queue, not the
// day's totals, and numbers are issued in sequence from the start number.
type issueTracker struct {
	date   string
	maxSeq map[string]int
	start  map[string]int // start numbers, from the services page
}

func (it *issueTracker) observe(u update) {
	if it.date != u.snap.BusinessDate || it.maxSeq == nil {
		it.date, it.maxSeq = u.snap.BusinessDate, map[string]int{}
	}
	see := func(t model.Ticket) {
		code := t.IssueService
		if code == "" {
			code = t.Service
		}
		if t.BusinessDate == it.date && t.SeqNo > it.maxSeq[code] {
			it.maxSeq[code] = t.SeqNo
		}
	}
	for _, t := range u.snap.RecentCalls {
		see(t)
	}
	for _, t := range u.snap.Passed {
		see(t)
	}
	for _, w := range u.snap.Windows {
		if w.Current != nil {
			see(*w.Current)
		}
	}
	for _, e := range u.events {
		if e.Ticket != nil {
			see(*e.Ticket)
		}
	}
}

// warnings lists the seed 002 §5.2 health warnings for s.
func (it *issueTracker) warnings(s model.Snapshot) []string {
	var out []string
	issued, passed := 0, 0
	for _, c := range s.Services {
		start := max(it.start[c.Code], 1)
		issued += max(it.maxSeq[c.Code]-start+1, c.Waiting, 0)
	}
	for _, t := range s.Passed {
		if t.BusinessDate == s.BusinessDate {
			passed++
		}
	}
	if issued > 0 && float64(passed)/float64(issued) > passedRatioWarn {
		out = append(out, tr("monitor.warn_passed", kv("P", passed, "N", issued, "R", passed*100/issued)))
	}
	for _, c := range s.Services {
		if c.Waiting <= idleQueueWarn {
			continue
		}
		for _, w := range s.Windows {
			if w.Serves(c.Code) && w.Status != model.WindowClosed && (w.Current == nil || !held(*w.Current)) {
				out = append(out, tr("monitor.warn_idle", kv("Code", c.Code, "Name", c.Name, "N", c.Waiting, "W", w.Number, "Status", windowStatusText(w.Status))))
			}
		}
	}
	return out
}
