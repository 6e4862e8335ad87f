package screens

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// reportTimeout bounds a report: a month over a busy branch's history takes
// seconds, far more than a button's store call.
const reportTimeout = 5 * time.Minute

// reportsPage writes the daily PDF for a range of business days and opens
// it; the generator is injected, so a PC without it says so.
type reportsPage struct {
	m        *Manager
	from, to *widget.DateEntry
	run      *widget.Button
	msg      *widget.Label
	health   *healthCard
	// filled is the day setDate put in the first field: left as it is,
	// "check now" checks the last closed day, not today's open one.
	filled  string
	content fyne.CanvasObject
}

func newReportsPage(m *Manager) *reportsPage {
	p := &reportsPage{m: m, from: widget.NewDateEntry(), to: widget.NewDateEntry(), msg: widget.NewLabel("")}
	p.msg.Wrapping = fyne.TextWrapWord
	p.run = widget.NewButton(tr("reports.generate"), p.generate)
	p.run.Importance = widget.HighImportance
	form := widget.NewForm(widget.NewFormItem(tr("reports.from"), p.from), widget.NewFormItem(tr("reports.to"), p.to))
	p.health = newHealthCard(m, p.firstDate)
	p.content = container.NewVScroll(container.NewVBox(widget.NewCard(tr("manager.reports"), tr("reports.hint"), container.NewVBox(form, p.run, p.msg)),
		p.health.content))
	if m.deps.Report == nil {
		p.run.Disable()
		p.msg.SetText(tr("reports.unavailable"))
	}
	return p
}

// setDate fills today's business date into empty fields.
func (p *reportsPage) setDate(day string) {
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return
	}
	if p.from.Date == nil {
		p.filled = day
	}
	for _, e := range []*widget.DateEntry{p.from, p.to} {
		if e.Date == nil {
			e.SetDate(&d)
		}
	}
}

// firstDate is the day the manager picked in the first field; "" (the
// last closed business day, on the host) when none is picked or it is
// still the day filled in.
func (p *reportsPage) firstDate() string {
	if p.from.Date == nil || p.from.Date.Format(time.DateOnly) == p.filled {
		return ""
	}
	return p.from.Date.Format(time.DateOnly)
}

func (p *reportsPage) generate() {
	if p.from.Date == nil || p.to.Date == nil {
		p.msg.SetText(tr("reports.pick_dates"))
		return
	}
	from, to := p.from.Date.Format(time.DateOnly), p.to.Date.Format(time.DateOnly)
	var path string
	p.run.Disable()
	p.msg.SetText(tr("reports.working"))
	p.m.asyncFor(reportTimeout, func(ctx context.Context) error {
		var err error
		if path, err = p.m.deps.Report(ctx, from, to); err != nil {
			return err
		}
		if p.m.deps.Open != nil {
			return p.m.deps.Open(path)
		}
		return nil
	}, func(err error) {
		p.run.Enable()
		if err != nil {
			p.msg.SetText(errText(err))
			return
		}
		p.msg.SetText(tr("reports.done", kv("Path", path)))
	})
}
