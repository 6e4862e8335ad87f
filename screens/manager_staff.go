package screens

import (
	"context"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// staffPage is the manager's page for the clerks' accounts (个人中心):
// add one, disable or enable it, reset its password, and whether the
// hall's rows name the clerk at each window (show_staff). Passwords are
// typed into password fields and go to the store, which keeps a hash.
type staffPage struct {
	m                      *Manager
	rows                   *fyne.Container
	number, name, services *widget.Entry
	pass                   *widget.Entry
	create                 *widget.Button
	showHall               *widget.Check
	msg                    *widget.Label
	content                fyne.CanvasObject
}

// staffKeys are the settings this page owns, left off the general page.
var staffKeys = []string{"show_staff"}

func newStaffPage(m *Manager) *staffPage {
	p := &staffPage{m: m, rows: container.NewVBox(), msg: widget.NewLabel("")}
	p.msg.Wrapping = fyne.TextWrapWord
	p.number, p.name, p.services = widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	p.services.SetPlaceHolder(tr("staff.services_hint"))
	p.pass = widget.NewPasswordEntry()
	p.create = widget.NewButton(tr("staff.add"), p.add)
	p.create.Importance = widget.HighImportance
	p.showHall = widget.NewCheck(tr("staff.show_hall"), nil)
	form := widget.NewForm(widget.NewFormItem(tr("clerk.number"), p.number), widget.NewFormItem(tr("staff.name"), p.name),
		widget.NewFormItem(tr("clerk.password"), p.pass), widget.NewFormItem(tr("staff.services"), p.services))
	p.content = container.NewVScroll(container.NewVBox(
		widget.NewCard(tr("manager.staff"), tr("staff.hint"), p.rows),
		widget.NewCard(tr("staff.new"), "", container.NewVBox(form, p.create)),
		p.showHall, p.msg))
	if _, ok := p.admin(); !ok {
		p.create.Disable()
		p.showHall.Disable()
		p.msg.SetText(tr("staff.unavailable"))
	}
	return p
}

func (p *staffPage) admin() (model.StaffAdmin, bool) {
	a, ok := p.m.st.(model.StaffAdmin)
	return a, ok
}

// show takes the branch settings: the hall's show_staff.
func (p *staffPage) show(st model.Settings, err error) {
	if err != nil {
		return
	}
	p.showHall.OnChanged = nil
	p.showHall.SetChecked(st.ShowStaff)
	p.showHall.OnChanged = p.setShowHall
}

func (p *staffPage) setShowHall(on bool) {
	p.m.async(func(ctx context.Context) error {
		return p.m.st.SetSetting(ctx, "show_staff", strconv.FormatBool(on))
	}, func(err error) { note(p.msg, err, "common.saved") })
}

func (p *staffPage) load() {
	a, ok := p.admin()
	if !ok {
		return
	}
	loadInto(p.m, p.msg, a.StaffList, func(got []model.Staff) {
		p.rows.RemoveAll()
		for _, s := range got {
			p.rows.Add(p.row(s))
		}
		if len(got) == 0 {
			p.rows.Add(widget.NewLabel(tr("staff.none")))
		}
		p.content.Refresh()
	})
}

func (p *staffPage) row(s model.Staff) fyne.CanvasObject {
	number := s.Number
	state := tr("staff.enabled")
	if !s.Enabled {
		state = tr("staff.disabled")
	}
	if s.LockedUntil != nil { // the manager's reset lifts it at once
		state += " · " + tr("staff.locked")
	}
	services := tr("staff.any_service")
	if len(s.Services) > 0 {
		services = strings.Join(s.Services, " ")
	}
	toggle := widget.NewButton(tr("staff.disable"), func() { p.setEnabled(number, false) })
	if !s.Enabled {
		toggle.SetText(tr("staff.enable"))
		toggle.OnTapped = func() { p.setEnabled(number, true) }
	}
	reset := widget.NewButton(tr("staff.reset"), func() { p.askReset(number) })
	line := tr("staff.line", kv("Number", s.Number, "Name", s.Name, "State", state, "Services", services))
	return container.NewBorder(nil, nil, nil, container.NewHBox(toggle, reset), widget.NewLabel(line))
}

func (p *staffPage) add() {
	a, _ := p.admin()
	s := model.Staff{Number: p.number.Text, Name: p.name.Text, Services: strings.Fields(strings.ReplaceAll(p.services.Text, ",", " "))}
	pass := p.pass.Text
	p.m.async(func(ctx context.Context) error {
		_, err := a.AddStaff(ctx, s, pass)
		return err
	}, func(err error) {
		note(p.msg, err, "common.saved")
		if err == nil {
			p.number.SetText("")
			p.name.SetText("")
			p.pass.SetText("")
			p.services.SetText("")
			p.load()
		}
	})
}

func (p *staffPage) setEnabled(number string, on bool) {
	a, _ := p.admin()
	p.m.async(func(ctx context.Context) error {
		_, err := a.SetStaffEnabled(ctx, number, on)
		return err
	}, func(err error) {
		note(p.msg, err, "common.saved")
		p.load()
	})
}

func (p *staffPage) askReset(number string) {
	pass := widget.NewPasswordEntry()
	dialog.ShowForm(tr("staff.reset_title", kv("Number", number)), tr("common.save"), tr("common.cancel"),
		[]*widget.FormItem{widget.NewFormItem(tr("clerk.password"), pass)}, func(ok bool) {
			if ok {
				p.reset(number, pass.Text)
			}
		}, p.m.w)
}

func (p *staffPage) reset(number, password string) {
	a, _ := p.admin()
	p.m.async(func(ctx context.Context) error {
		return a.ResetStaffPassword(ctx, number, password)
	}, func(err error) {
		note(p.msg, err, "staff.reset_done")
		p.load()
	})
}
