package screens

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// areasPage is 等候区管理: the branch's waiting areas with the services
// each holds, from the live state, and an editor to add, rename or delete
// one. Which area a service belongs to is set on the services page; an
// area is deleted only once it holds none. A store that keeps no areas
// shows a sentence instead.
type areasPage struct {
	m           *Manager
	areas       model.Areas
	shown       string // what the rows show, to rebuild only on change
	rows        *fyne.Container
	name, where *widget.Entry
	editing     int64 // the area in the editor, 0: a new one
	msg         *widget.Label
	content     fyne.CanvasObject
}

func newAreasPage(m *Manager) *areasPage {
	p := &areasPage{m: m, rows: container.NewVBox(), msg: widget.NewLabel("")}
	p.areas, _ = m.st.(model.Areas)
	p.msg.Wrapping = fyne.TextWrapWord
	if p.areas == nil {
		p.content = widget.NewLabel(tr("areas.unavailable"))
		return p
	}
	p.name, p.where = widget.NewEntry(), widget.NewEntry()
	p.where.SetPlaceHolder(tr("areas.where_hint"))
	form := widget.NewForm(widget.NewFormItem(tr("areas.name"), p.name), widget.NewFormItem(tr("areas.where"), p.where))
	save := widget.NewButton(tr("common.save"), p.save)
	save.Importance = widget.HighImportance
	add := widget.NewButton(tr("areas.new"), func() { p.edit(model.Area{}) })
	editor := widget.NewCard(tr("areas.edit"), tr("areas.hint"), container.NewVBox(form, container.NewHBox(save, add), p.msg))
	p.content = container.NewVScroll(container.NewVBox(widget.NewCard(tr("manager.areas"), "", p.rows), editor))
	return p
}

// show lists the areas of the live state with their services.
func (p *areasPage) show(s model.Snapshot) {
	if p.areas == nil {
		return
	}
	texts := make([]string, len(s.Areas))
	for i, a := range s.Areas {
		texts[i] = areaLine(s, a)
	}
	joined := strings.Join(texts, "\n")
	if joined == p.shown {
		return
	}
	p.shown = joined
	p.rows.RemoveAll()
	for i, a := range s.Areas {
		a := a
		edit := widget.NewButton(tr("common.edit"), func() { p.edit(a) })
		del := widget.NewButton(tr("areas.delete"), func() { p.delete(a.ID) })
		p.rows.Add(container.NewBorder(nil, nil, nil, container.NewHBox(edit, del), widget.NewLabel(texts[i])))
	}
	p.content.Refresh()
}

// areaLine is one area as the list shows it: name, place, services.
func areaLine(s model.Snapshot, a model.Area) string {
	var codes []string
	for _, c := range s.Services {
		if c.Area == a.ID {
			codes = append(codes, c.Code)
		}
	}
	services := strings.Join(codes, ",")
	if services == "" {
		services = tr("areas.empty")
	}
	where := a.Where
	if where == "" {
		where = "—"
	}
	return tr("areas.line", kv("Name", a.Name, "Where", where, "Services", services))
}

func (p *areasPage) edit(a model.Area) {
	p.editing = a.ID
	p.name.SetText(a.Name)
	p.where.SetText(a.Where)
}

func (p *areasPage) save() {
	a := model.Area{ID: p.editing, Name: p.name.Text, Where: p.where.Text}
	var saved model.Area
	p.m.async(func(ctx context.Context) error {
		var err error
		saved, err = p.areas.SaveArea(ctx, a)
		return err
	}, func(err error) {
		if err == nil {
			p.editing = saved.ID // a second save renames it, never adds another
		}
		note(p.msg, err, "common.saved")
	})
}

// delete asks the store; an area that still holds services is refused
// with the store's sentence, and nothing changes.
func (p *areasPage) delete(id int64) {
	p.m.async(func(ctx context.Context) error {
		return p.areas.DeleteArea(ctx, id)
	}, func(err error) {
		if err == nil && p.editing == id {
			p.edit(model.Area{})
		}
		note(p.msg, err, "areas.deleted")
	})
}
