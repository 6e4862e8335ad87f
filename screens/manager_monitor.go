package screens

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// monitor is the live page: the alerts to acknowledge and the health
// warnings first, then the day's dashboard and each window's state.
type monitor struct {
	warn, win, sat *lines
	alerts         *alertList
	dash           *dashboard
	content        fyne.CanvasObject
}

func newMonitor(alerts *alertList, dash *dashboard) *monitor {
	m := &monitor{warn: newLines(), win: newLines(), sat: newLines(), alerts: alerts, dash: dash}
	card := func(key string, l *lines) fyne.CanvasObject { return widget.NewCard(tr(key), "", l.box) }
	m.content = container.NewVScroll(container.NewVBox(widget.NewCard(tr("monitor.alerts"), "", alerts.content()),
		card("monitor.health", m.warn), dash.content, card("monitor.satisfaction", m.sat), card("monitor.windows", m.win)))
	return m
}

func (m *monitor) show(s model.Snapshot, warnings []string) {
	if len(warnings) == 0 {
		m.warn.set([]string{tr("monitor.healthy")}, widget.SuccessImportance)
	} else {
		m.warn.set(warnings, widget.DangerImportance)
	}
	var win []string
	for _, w := range s.Windows {
		cur := tr("monitor.no_ticket")
		if w.Current != nil && model.Held(*w.Current) {
			cur = fmt.Sprintf("%s (%s)", w.Current.Number, statusText(w.Current.Status))
		}
		name := w.Name
		if name == "" {
			name = tr("caller.window", kv("N", w.Number))
		}
		line := tr("monitor.window_line", kv("Name", name, "Status", windowStatusText(w.Status), "Services", strings.Join(w.Services, ","), "Current", cur))
		if w.Clerk != nil { // who serves there, for the manager walking the floor
			line += " · " + clerkText(w.Clerk)
		}
		win = append(win, line)
	}
	m.win.set(win, widget.MediumImportance)
	m.sat.set(satisfactionLines(s.Rated), widget.MediumImportance)
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

// healthWarnings lists the seed 002 §5.2 health warnings for s, from the
// day's exact counts that the snapshot carries and the events keep current,
// by the branch's alert thresholds. They show the state now; the alerts
// above them are the occurrences the manager acknowledges.
func healthWarnings(s model.Snapshot, rules model.AlertRules) []string {
	var out []string
	issued, passed := 0, 0
	for _, c := range s.Services {
		issued += c.Taken
		passed += c.Passed
	}
	if rules.PassedHigh(issued, passed) {
		out = append(out, tr("monitor.warn_passed", kv("P", passed, "N", issued, "R", passed*100/issued, "T", rules.PassedPct)))
	}
	for _, d := range s.Faults {
		out = append(out, tr("monitor.warn_device", kv("Terminal", d.Terminal, "Kind", tr("device."+d.Kind), "Fault", d.Fault)))
	}
	for _, c := range s.Services {
		if rules.Waiting <= 0 || c.Waiting <= rules.Waiting {
			continue
		}
		for _, w := range s.Windows {
			// Lunch is planned, like closing: not a window left idle.
			if w.Serves(c.Code) && w.Status != model.WindowClosed && w.Status != model.WindowLunch && (w.Current == nil || !model.Held(*w.Current)) {
				out = append(out, tr("monitor.warn_idle", kv("Code", c.Code, "Name", c.Name, "N", c.Waiting, "W", w.Number, "Status", windowStatusText(w.Status))))
			}
		}
	}
	return out
}

// satisfactionLines are today's ratings as the monitor shows them: the
// satisfied share and count, then each level's count.
func satisfactionLines(m model.Satisfaction) []string {
	if m.Count() == 0 {
		return []string{tr("satisfaction.none")}
	}
	return []string{
		tr("satisfaction.today", kv("Pct", fmt.Sprintf("%.1f", m.Satisfied()*100), "N", m.Count())),
		tr("satisfaction.levels", kv("L4", m.Of(model.ScoreVerySatisfied), "L3", m.Of(model.ScoreSatisfied),
			"L2", m.Of(model.ScoreFair), "L1", m.Of(model.ScoreUnsatisfied))),
	}
}
