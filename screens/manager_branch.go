package screens

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// branchForm edits the branch's name and time zone (the branch row). The
// store checks them and every PC follows the configuration event: the
// kiosk, hall and tickets show the new name and the business date follows
// the new zone without a restart.
type branchForm struct {
	m          *Manager
	name, zone *widget.Entry
	saveBtn    *widget.Button
	msg        *widget.Label
	loaded     [2]string
	content    fyne.CanvasObject
}

func newBranchForm(m *Manager) *branchForm {
	b := &branchForm{m: m, name: widget.NewEntry(), zone: widget.NewEntry(), msg: widget.NewLabel("")}
	b.zone.SetPlaceHolder("Asia/Shanghai")
	b.saveBtn = widget.NewButton(tr("branch.save"), b.save)
	form := widget.NewForm(widget.NewFormItem(tr("branch.name"), b.name), widget.NewFormItem(tr("branch.zone"), b.zone))
	b.content = widget.NewCard("", tr("branch.title"), container.NewVBox(form, container.NewHBox(b.saveBtn, b.msg)))
	return b
}

// load shows the followed snapshot's name and zone; an edit not yet saved
// is kept.
func (b *branchForm) load(s model.Snapshot) {
	if b.name.Text == b.loaded[0] {
		b.name.SetText(s.Branch)
	}
	if b.zone.Text == b.loaded[1] {
		b.zone.SetText(s.TimeZone)
	}
	b.loaded = [2]string{s.Branch, s.TimeZone}
}

func (b *branchForm) save() {
	name, zone := strings.TrimSpace(b.name.Text), strings.TrimSpace(b.zone.Text)
	b.saveBtn.Disable()
	b.m.async(func(ctx context.Context) error {
		return b.m.st.SetBranch(ctx, name, zone)
	}, func(err error) {
		b.saveBtn.Enable()
		note(b.msg, err, "common.saved")
	})
}
