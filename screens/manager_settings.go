package screens

import (
	"context"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// settingKeys are the editable settings in a stable order: the ones staff
// change most often first.
var settingKeys = func() []string {
	first := []string{"business_hours", "vip_enabled", "call_timeout_s", "recall_max", "requeue_offset"}
	seen := map[string]bool{}
	for _, k := range first {
		seen[k] = true
	}
	var rest []string
	for _, k := range append(append(displayKeys, staffKeys...), customerKeys...) { // the display, staff and customer pages'
		seen[k] = true
	}
	for k := range model.DefaultSettings {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(first, rest...)
}()

// settingsPage edits the branch settings (t_Config); the store checks
// each value and the first refusal is shown as one sentence.
type settingsPage struct {
	m       *Manager
	loaded  map[string]string
	entries map[string]*widget.Entry
	msg     *widget.Label
	saveBtn *widget.Button
	branch  *branchForm
	content fyne.CanvasObject
}

func newSettingsPage(m *Manager) *settingsPage {
	p := &settingsPage{m: m, entries: map[string]*widget.Entry{}, msg: widget.NewLabel("")}
	form := widget.NewForm()
	for _, k := range settingKeys {
		e := widget.NewEntry()
		p.entries[k] = e
		form.Append(tr("setting."+k), e)
	}
	p.saveBtn = widget.NewButton(tr("common.save"), p.save)
	p.saveBtn.Importance = widget.HighImportance
	p.branch = newBranchForm(m)
	p.content = container.NewVScroll(container.NewVBox(p.branch.content, form, p.saveBtn, p.msg))
	return p
}

// show takes the branch's settings as the manager loaded them (err: why
// they could not be read).
func (p *settingsPage) show(got model.Settings, err error) {
	p.branch.load(p.m.snap)
	if err != nil {
		p.msg.SetText(errText(err))
		return
	}
	p.loaded = got.Raw
	p.m.rules = got.Alerts
	p.m.mon.show(p.m.snap, healthWarnings(p.m.snap, p.m.rules))
	for k, e := range p.entries {
		e.SetText(got.Raw[k])
	}
}

// save writes the changed settings one by one, once every one of them
// passed the store's own check: a refused value (colours too pale to
// read) would otherwise leave the ones before it saved and the page
// saying nothing was.
func (p *settingsPage) save() {
	changed := map[string]string{}
	for k, e := range p.entries {
		if e.Text != p.loaded[k] {
			changed[k] = e.Text
		}
	}
	for _, k := range settingKeys {
		if v, ok := changed[k]; ok {
			if err := model.ValidateSetting(k, v); err != nil {
				note(p.msg, err, "")
				return
			}
		}
	}
	p.m.async(func(ctx context.Context) error {
		for _, k := range settingKeys {
			if v, ok := changed[k]; ok {
				if err := p.m.st.SetSetting(ctx, k, v); err != nil {
					return err
				}
			}
		}
		return nil
	}, func(err error) { note(p.msg, err, "common.saved") })
}
