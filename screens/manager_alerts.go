package screens

import (
	"context"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// alertList is the monitor's list of the alerts the manager has yet to
// answer (model.Alert.ToAnswer), newest first: what each is about, since
// when, and a button to acknowledge it. An acknowledged alert whose
// condition still holds leaves that list for one smaller line below it
// ("acknowledged, still going"), so the list to answer empties once the
// manager has answered everything. Rows are reused by index, like lines.
type alertList struct {
	m       *Manager
	box     *fyne.Container
	rows    []*alertRowView
	none    *widget.Label
	ongoing *widget.Label // acknowledged, still going
	msg     *widget.Label
	heard   map[int64]bool // alerts already sounded on this screen
	pending map[int64]bool // acknowledgements sent, not yet seen back
	ids     []int64        // the alert of each row
}

type alertRowView struct {
	text *widget.Label
	ack  *widget.Button
	box  *fyne.Container
}

func newAlertList(m *Manager) *alertList {
	l := &alertList{m: m, box: container.NewVBox(), none: widget.NewLabel(tr("monitor.no_alerts")), ongoing: widget.NewLabel(""),
		msg: widget.NewLabel(""), heard: map[int64]bool{}, pending: map[int64]bool{}}
	l.none.Importance = widget.SuccessImportance
	l.ongoing.Importance = widget.LowImportance
	l.ongoing.SizeName = theme.SizeNameCaptionText
	l.ongoing.Wrapping = fyne.TextWrapWord
	l.ongoing.Hide()
	l.msg.Importance = widget.DangerImportance
	l.msg.Hide()
	l.box.Hide()
	return l
}

func (l *alertList) content() fyne.CanvasObject {
	return container.NewVBox(l.none, l.box, l.ongoing, l.msg)
}

// show lists the snapshot's alerts with times in zone, and reports how
// many of them are new and still unanswered: each sounds once.
func (l *alertList) show(s model.Snapshot, in func(time.Time) time.Time) int {
	fresh := 0
	var answer []model.Alert
	var going []string
	listed := map[int64]bool{}
	for _, a := range s.Alerts {
		listed[a.ID] = true
		if !l.heard[a.ID] {
			l.heard[a.ID] = true
			if a.AckAt == nil && a.Cleared == nil {
				fresh++
			}
		}
		if a.ToAnswer() {
			answer = append(answer, a)
			continue
		}
		delete(l.pending, a.ID)
		going = append(going, alertText(a)+" · "+alertState(a, in))
	}
	for len(l.rows) < len(answer) {
		l.addRow()
	}
	l.ids = l.ids[:0]
	for i, r := range l.rows {
		if i >= len(answer) {
			r.box.Hide()
			continue
		}
		a := answer[i]
		l.ids = append(l.ids, a.ID)
		text := alertText(a) + " · " + alertState(a, in)
		imp := widget.DangerImportance
		if a.Cleared != nil {
			imp = widget.MediumImportance
		}
		if r.text.Text != text || r.text.Importance != imp {
			r.text.Importance = imp
			r.text.SetText(text)
		}
		if l.pending[a.ID] {
			r.ack.Disable()
		} else {
			r.ack.Enable()
		}
		r.box.Show()
	}
	// An alert that left the snapshot is done for good: forget it, so the
	// screen's memory stays flat however long it runs.
	for id := range l.heard {
		if !listed[id] {
			delete(l.heard, id)
			delete(l.pending, id)
		}
	}
	if len(going) > 0 {
		l.ongoing.SetText(tr("alert.ongoing", kv("N", len(going), "List", strings.Join(going, "；"))))
		l.ongoing.Show()
	} else {
		l.ongoing.Hide()
	}
	l.none.Hidden = len(answer) > 0
	l.box.Hidden = len(answer) == 0
	l.none.Refresh()
	l.box.Refresh()
	return fresh
}

func (l *alertList) addRow() {
	i := len(l.rows)
	r := &alertRowView{text: widget.NewLabel("")}
	r.text.Wrapping = fyne.TextWrapWord
	r.ack = widget.NewButton(tr("alert.ack"), func() { l.acknowledge(i) })
	r.ack.Importance = widget.HighImportance
	r.box = container.NewBorder(nil, nil, nil, container.NewVBox(layout.NewSpacer(), r.ack, layout.NewSpacer()), r.text)
	l.rows = append(l.rows, r)
	l.box.Add(r.box)
}

// acknowledge answers the alert of row i; the acknowledgement comes back
// as an event and updates the row like every other PC's monitor.
func (l *alertList) acknowledge(i int) {
	if i >= len(l.ids) {
		return
	}
	id, btn := l.ids[i], l.rows[i].ack
	btn.Disable()
	l.pending[id] = true
	l.m.async(func(ctx context.Context) error {
		_, err := l.m.st.AckAlert(ctx, id)
		return err
	}, func(err error) {
		if err != nil {
			delete(l.pending, id)
			btn.Enable()
			l.msg.SetText(errText(err))
			l.msg.Show()
			return
		}
		l.msg.Hide()
	})
}

// alertText says what an alert is about, in the screen's language.
func alertText(a model.Alert) string {
	switch a.Kind {
	case model.AlertIdlePause:
		return tr("alert.idle_pause", kv("W", a.Window))
	case model.AlertPassedRatio:
		r := 0
		if a.Total > 0 {
			r = a.Count * 100 / a.Total
		}
		return tr("alert.passed_ratio", kv("Code", a.Service, "P", a.Count, "N", a.Total, "R", r))
	case model.AlertWaitingIdle:
		ws := make([]string, len(a.Windows))
		for i, w := range a.Windows {
			ws[i] = strconv.Itoa(w)
		}
		return tr("alert.waiting_idle", kv("Code", a.Service, "N", a.Count, "Windows", strings.Join(ws, ", ")))
	case model.AlertDevice:
		return tr("alert.device", kv("Terminal", a.Terminal, "Kind", tr("device."+a.Device), "Fault", a.Fault))
	}
	return a.Kind + " " + a.Subject
}

// alertState says since when, and whether it ended or was acknowledged.
func alertState(a model.Alert, in func(time.Time) time.Time) string {
	parts := []string{tr("alert.since", kv("Time", in(a.Since).Format("15:04:05")))}
	if a.Cleared != nil {
		parts = append(parts, tr("alert.cleared", kv("Time", in(*a.Cleared).Format("15:04:05"))))
	}
	if a.AckAt != nil {
		parts = append(parts, tr("alert.acked", kv("By", a.AckBy, "Time", in(*a.AckAt).Format("15:04:05"))))
	}
	return strings.Join(parts, " · ")
}
