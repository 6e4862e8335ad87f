package screens

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// servicesPage lists the services (业务类型) and edits one at a time.
type servicesPage struct {
	m                                  *Manager
	list                               []model.Service
	rows                               *fyne.Container
	code, name, prio, start, width, so *widget.Entry
	enabled                            *widget.Check
	area                               *widget.Select // the service's waiting area, by name
	areaList                           []model.Area   // the branch's, from the live state
	msg                                *widget.Label
	content                            fyne.CanvasObject
}

func newServicesPage(m *Manager) *servicesPage {
	p := &servicesPage{m: m, rows: container.NewVBox(), msg: widget.NewLabel("")}
	p.code, p.name, p.prio = widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	p.start, p.width, p.so = widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	p.enabled = widget.NewCheck(tr("services.enabled"), nil)
	p.area = widget.NewSelect(nil, nil)
	form := widget.NewForm(
		widget.NewFormItem(tr("services.code"), p.code), widget.NewFormItem(tr("services.name"), p.name),
		widget.NewFormItem(tr("services.priority"), p.prio), widget.NewFormItem(tr("services.start"), p.start),
		widget.NewFormItem(tr("services.width"), p.width), widget.NewFormItem(tr("services.sort"), p.so),
		widget.NewFormItem(tr("services.area"), p.area), widget.NewFormItem("", p.enabled))
	save := widget.NewButton(tr("common.save"), p.save)
	save.Importance = widget.HighImportance
	add := widget.NewButton(tr("services.new"), func() { p.edit(model.Service{Priority: model.DefaultPriority, StartNo: 1, Enabled: true}) })
	editor := widget.NewCard(tr("services.edit"), "", container.NewVBox(form, container.NewHBox(save, add), p.msg))
	p.content = container.NewVScroll(container.NewVBox(widget.NewCard(tr("manager.services"), "", p.rows), editor))
	p.edit(model.Service{Priority: model.DefaultPriority, StartNo: 1, Enabled: true})
	return p
}

// load fetches the services; it runs on the UI goroutine.
func (p *servicesPage) load() {
	var got []model.Service
	p.m.async(func(ctx context.Context) error {
		var err error
		got, err = p.m.st.Services(ctx)
		return err
	}, func(err error) {
		if err != nil {
			p.msg.SetText(errText(err))
			return
		}
		p.list = got
		p.rows.RemoveAll()
		for _, s := range got {
			s := s
			state := tr("services.enabled")
			if !s.Enabled {
				state = tr("monitor.disabled")
			}
			text := tr("services.line", kv("Code", s.Code, "Name", s.Name, "P", s.Priority, "S", s.StartNo, "W", s.Width)) + " · " + state
			if name := p.areaName(s.Area); len(p.areaList) > 1 && name != "" {
				text += " · " + name
			}
			p.rows.Add(container.NewBorder(nil, nil, nil, widget.NewButton(tr("common.edit"), func() { p.edit(s) }), widget.NewLabel(text)))
		}
		p.content.Refresh()
	})
}

func (p *servicesPage) edit(s model.Service) {
	p.code.SetText(s.Code)
	p.name.SetText(s.Name)
	p.prio.SetText(strconv.Itoa(s.Priority))
	p.start.SetText(strconv.Itoa(s.StartNo))
	p.width.SetText(strconv.Itoa(s.Width))
	p.so.SetText(strconv.Itoa(s.SortOrder))
	p.enabled.SetChecked(s.Enabled)
	p.area.SetSelected(p.areaName(s.Area))
}

// showAreas offers the live state's areas to the editor.
func (p *servicesPage) showAreas(s model.Snapshot) {
	if slices.Equal(s.Areas, p.areaList) {
		return
	}
	// The editor's choice is kept by id: an area renamed meanwhile is
	// still the service's, not the default area's by a stale name.
	sel := p.areaID()
	p.areaList = slices.Clone(s.Areas)
	names := make([]string, len(s.Areas))
	for i, a := range s.Areas {
		names[i] = a.Name
	}
	p.area.SetOptions(names)
	p.area.SetSelected(p.areaName(sel))
}

// areaName is the name of area id; 0 or an unknown id is the default
// area's (the first), where a new service goes.
func (p *servicesPage) areaName(id int64) string {
	for _, a := range p.areaList {
		if a.ID == id {
			return a.Name
		}
	}
	if len(p.areaList) > 0 {
		return p.areaList[0].Name
	}
	return ""
}

// areaID is the area the editor names, 0 when it names none.
func (p *servicesPage) areaID() int64 {
	for _, a := range p.areaList {
		if a.Name == p.area.Selected {
			return a.ID
		}
	}
	return 0
}

func (p *servicesPage) save() {
	num := func(e *widget.Entry) int { n, _ := strconv.Atoi(strings.TrimSpace(e.Text)); return n }
	s := model.Service{Code: p.code.Text, Name: p.name.Text, Priority: num(p.prio), StartNo: num(p.start),
		Width: num(p.width), SortOrder: num(p.so), Enabled: p.enabled.Checked, Area: p.areaID()}
	p.m.async(func(ctx context.Context) error {
		_, err := p.m.st.SaveService(ctx, s)
		return err
	}, func(err error) { note(p.msg, err, "common.saved") })
}

// windowsPage lists the windows from the live state and edits one.
type windowsPage struct {
	m            *Manager
	shown        string // what the rows show, to rebuild only on change
	rows         *fyne.Container
	number, name *widget.Entry
	services     *widget.CheckGroup
	allowed      *widget.CheckGroup // what its clerk may switch to
	status       *widget.Select
	msg          *widget.Label
	content      fyne.CanvasObject
}

var windowStatuses = model.WindowStatuses

func newWindowsPage(m *Manager) *windowsPage {
	p := &windowsPage{m: m, rows: container.NewVBox(), msg: widget.NewLabel("")}
	p.number, p.name = widget.NewEntry(), widget.NewEntry()
	p.services = widget.NewCheckGroup(nil, nil)
	p.services.Horizontal = true
	p.allowed = widget.NewCheckGroup(nil, nil)
	p.allowed.Horizontal = true
	var st []string
	for _, s := range windowStatuses {
		st = append(st, windowStatusText(s))
	}
	p.status = widget.NewSelect(st, nil)
	form := widget.NewForm(widget.NewFormItem(tr("windows.number"), p.number), widget.NewFormItem(tr("windows.name"), p.name),
		widget.NewFormItem(tr("windows.services"), p.services), widget.NewFormItem(tr("windows.allowed"), p.allowed),
		widget.NewFormItem(tr("windows.status"), p.status))
	save := widget.NewButton(tr("common.save"), p.save)
	save.Importance = widget.HighImportance
	add := widget.NewButton(tr("windows.new"), func() { p.edit(model.Window{Status: model.WindowOpen}) })
	editor := widget.NewCard(tr("windows.edit"), "", container.NewVBox(form, container.NewHBox(save, add), p.msg))
	p.content = container.NewVScroll(container.NewVBox(widget.NewCard(tr("manager.windows"), "", p.rows), editor))
	p.edit(model.Window{Status: model.WindowOpen})
	return p
}

func (p *windowsPage) show(s model.Snapshot) {
	var codes []string
	for _, c := range s.Services {
		codes = append(codes, c.Code)
	}
	if !slices.Equal(codes, p.services.Options) {
		p.services.Options, p.allowed.Options = codes, slices.Clone(codes)
		p.services.Refresh()
		p.allowed.Refresh()
	}
	var texts []string
	for _, w := range s.Windows {
		texts = append(texts, tr("windows.line", kv("N", w.Number, "Name", w.Name, "Status", windowStatusText(w.Status), "Services", strings.Join(w.Services, ","))))
	}
	if joined := strings.Join(texts, "\n"); joined != p.shown {
		p.shown = joined
		p.rows.RemoveAll()
		for i, w := range s.Windows {
			w := w.Window
			p.rows.Add(container.NewBorder(nil, nil, nil, widget.NewButton(tr("common.edit"), func() { p.edit(w) }), widget.NewLabel(texts[i])))
		}
		p.content.Refresh()
	}
}

func (p *windowsPage) edit(w model.Window) {
	p.number.SetText("")
	if w.Number > 0 {
		p.number.SetText(strconv.Itoa(w.Number))
	}
	p.name.SetText(w.Name)
	p.services.SetSelected(append([]string(nil), w.Services...))
	p.allowed.SetSelected(model.AllowedUnion(w.Allowed, w.Services))
	p.status.SetSelected(windowStatusText(w.Status))
}

func (p *windowsPage) save() {
	n, _ := strconv.Atoi(strings.TrimSpace(p.number.Text))
	w := model.Window{Number: n, Name: p.name.Text, Services: append([]string(nil), p.services.Selected...), Status: model.WindowOpen,
		Allowed: append([]string{}, p.allowed.Selected...)} // what is served is allowed too, whether ticked or not
	for _, s := range windowStatuses {
		if windowStatusText(s) == p.status.Selected {
			w.Status = s
		}
	}
	p.m.async(func(ctx context.Context) error {
		_, err := p.m.st.SaveWindow(ctx, w)
		return err
	}, func(err error) { note(p.msg, err, "common.saved") })
}
