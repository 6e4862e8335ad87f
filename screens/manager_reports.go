package screens

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// reportsPage writes the daily PDF for a range of business days and opens
// it; the generator is injected, so a PC without it says so.
type reportsPage struct {
	m        *Manager
	from, to *widget.Entry
	run      *widget.Button
	msg      *widget.Label
	content  fyne.CanvasObject
}

func newReportsPage(m *Manager) *reportsPage {
	p := &reportsPage{m: m, from: widget.NewEntry(), to: widget.NewEntry(), msg: widget.NewLabel("")}
	p.msg.Wrapping = fyne.TextWrapWord
	p.from.SetPlaceHolder("2006-01-02")
	p.to.SetPlaceHolder("2006-01-02")
	p.run = widget.NewButton(tr("reports.generate"), p.generate)
	p.run.Importance = widget.HighImportance
	form := widget.NewForm(widget.NewFormItem(tr("reports.from"), p.from), widget.NewFormItem(tr("reports.to"), p.to))
	p.content = container.NewVBox(widget.NewCard(tr("manager.reports"), tr("reports.hint"), container.NewVBox(form, p.run, p.msg)))
	if m.deps.Report == nil {
		p.run.Disable()
		p.msg.SetText(tr("reports.unavailable"))
	}
	return p
}

// setDate fills today's business date into empty fields.
func (p *reportsPage) setDate(day string) {
	if p.from.Text == "" {
		p.from.SetText(day)
	}
	if p.to.Text == "" {
		p.to.SetText(day)
	}
}

func (p *reportsPage) generate() {
	from, to := strings.TrimSpace(p.from.Text), strings.TrimSpace(p.to.Text)
	var path string
	p.run.Disable()
	p.msg.SetText(tr("reports.working"))
	p.m.async(func(ctx context.Context) error {
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
