package screens

import (
	"context"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// healthCard shows the last daily health check (seed 002 §5.2) on the
// reports page, the manager's morning look: the day, fine or flagged and
// why, and where the host put the files; a button checks a day now and
// rewrites its files on the host.
type healthCard struct {
	m       *Manager
	banner  *widget.Label // across the top of every page while the last check is flagged
	status  *widget.Label
	where   *widget.Label
	run     *widget.Button
	date    func() string // the day to check now: the one picked, "" for the last closed day
	content fyne.CanvasObject
}

func newHealthCard(m *Manager, date func() string) *healthCard {
	c := &healthCard{m: m, banner: widget.NewLabel(""), status: widget.NewLabel(""), where: widget.NewLabel(""), date: date}
	c.banner.Importance, c.banner.Wrapping = widget.DangerImportance, fyne.TextWrapWord
	c.banner.Hide()
	c.status.Wrapping, c.where.Wrapping = fyne.TextWrapWord, fyne.TextWrapWord
	c.where.TextStyle = fyne.TextStyle{Monospace: true}
	c.run = widget.NewButton(tr("health.run"), c.runNow)
	c.content = widget.NewCard(tr("health.title"), tr("health.hint"), container.NewVBox(c.status, c.where, c.run))
	if m.deps.Health == nil {
		c.run.Disable()
		c.status.SetText(tr("health.unavailable"))
	}
	return c
}

// load reads the last check; the manager page calls it on every fresh
// snapshot (the new business day's among them).
func (c *healthCard) load() {
	if c.m.deps.Health == nil {
		return
	}
	var got model.HealthCheck
	c.m.async(func(ctx context.Context) error {
		var err error
		got, err = c.m.deps.Health.LastHealthCheck(ctx)
		return err
	}, func(err error) {
		c.show(got, err)
		if err == nil || model.IsCode(err, model.ENotFound) {
			c.flag(got, err)
			c.m.content.Refresh()
		}
	})
}

func (c *healthCard) runNow() {
	date := c.date()
	var got model.HealthCheck
	c.run.Disable()
	c.status.Importance = widget.MediumImportance
	c.status.SetText(tr("health.working"))
	c.m.asyncFor(reportTimeout, func(ctx context.Context) error {
		var err error
		got, err = c.m.deps.Health.RunHealthCheck(ctx, date)
		return err
	}, func(err error) {
		c.run.Enable()
		c.show(got, err)
		if err == nil {
			c.flagLast() // the banner is the last closed day's, whichever day was checked
		}
	})
}

// flagLast sets the banner from the last check alone.
func (c *healthCard) flagLast() {
	var last model.HealthCheck
	c.m.async(func(ctx context.Context) error {
		var err error
		last, err = c.m.deps.Health.LastHealthCheck(ctx)
		return err
	}, func(err error) {
		c.flag(last, err)
		c.m.content.Refresh()
	})
}

// flag shows the banner across every page while h is flagged.
func (c *healthCard) flag(h model.HealthCheck, err error) {
	c.banner.Hidden = err != nil || !h.Flagged
	if !c.banner.Hidden {
		c.banner.Text = tr("health.banner", kv("Date", h.Date, "Why", strings.Join(healthWhy(h), "；")))
	}
	c.banner.Refresh()
}

// healthWhy says why a check is flagged.
func healthWhy(h model.HealthCheck) []string {
	var why []string
	if h.Stuck > 0 {
		why = append(why, tr("health.stuck", kv("N", h.Stuck)))
	}
	if len(h.PassedOver) > 0 {
		why = append(why, tr("health.passed", kv("Services", strings.Join(h.PassedOver, " "))))
	}
	return why
}

// show puts a check on the card, flagged in red.
func (c *healthCard) show(h model.HealthCheck, err error) {
	switch {
	case model.IsCode(err, model.ENotFound):
		c.status.Importance = widget.MediumImportance
		c.status.SetText(tr("health.none"))
		c.where.SetText("")
		return
	case err != nil:
		c.status.Importance = widget.DangerImportance
		c.status.SetText(errText(err))
		return
	}
	c.status.Importance, c.status.Text = widget.SuccessImportance, tr("health.fine", kv("Date", h.Date, "Taken", h.Taken))
	if h.Flagged {
		c.status.Importance = widget.DangerImportance
		c.status.Text = tr("health.flagged", kv("Date", h.Date, "Why", strings.Join(healthWhy(h), "；")))
	}
	c.status.Refresh()
	c.m.content.Refresh()
	if h.Dir == "" {
		c.where.SetText(tr("health.nofiles"))
		return
	}
	c.where.SetText(tr("health.files", kv("Host", h.Host, "Path", filepath.Join(h.Dir, "jiaohao-health-"+h.Date+".pdf"))))
}
