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

// terminalsPage registers the PCs that may reach this branch's peer
// server and revokes them. A token is shown once, when it is made; only
// its hash is stored.
type terminalsPage struct {
	m            *Manager
	rows         *fyne.Container
	name, window *widget.Entry
	role         *widget.Select
	create       *widget.Button
	msg          *widget.Label
	content      fyne.CanvasObject
}

func newTerminalsPage(m *Manager) *terminalsPage {
	p := &terminalsPage{m: m, rows: container.NewVBox(), msg: widget.NewLabel("")}
	p.msg.Wrapping = fyne.TextWrapWord
	p.name, p.window = widget.NewEntry(), widget.NewEntry()
	p.role = widget.NewSelect(texts(branchRoleLabels()), nil)
	p.create = widget.NewButton(tr("terminals.create"), p.add)
	p.create.Importance = widget.HighImportance
	form := widget.NewForm(widget.NewFormItem(tr("terminals.name"), p.name),
		widget.NewFormItem(tr("terminals.role"), p.role), widget.NewFormItem(tr("terminals.window"), p.window))
	p.content = container.NewVScroll(container.NewVBox(widget.NewCard(tr("manager.terminals"), tr("terminals.hint"), p.rows),
		widget.NewCard(tr("terminals.new"), "", container.NewVBox(form, p.create, p.msg))))
	if m.deps.Terminals == nil || m.deps.NewToken == nil {
		p.create.Disable()
		p.msg.SetText(tr("terminals.unavailable"))
	}
	return p
}

func (p *terminalsPage) load() {
	terms := p.m.deps.Terminals
	if terms == nil {
		return
	}
	loadInto(p.m, p.msg, terms.Terminals, func(got []model.Terminal) {
		p.rows.RemoveAll()
		for _, t := range got {
			id := t.ID
			text := tr("terminals.line", kv("Name", t.Name, "Role", roleName(t.Role), "N", t.Window))
			revoke := widget.NewButton(tr("terminals.revoke"), func() { p.revoke(id) })
			if t.Revoked {
				text += " · " + tr("terminals.revoked")
				revoke.Disable()
			}
			p.rows.Add(container.NewBorder(nil, nil, nil, revoke, widget.NewLabel(text)))
		}
		p.content.Refresh()
	})
}

func (p *terminalsPage) add() {
	n, _ := strconv.Atoi(strings.TrimSpace(p.window.Text))
	role, _ := roleOf(p.role.Selected)
	t := model.Terminal{Name: p.name.Text, Role: role, Window: n}
	var token string
	p.m.async(func(ctx context.Context) error {
		tok, hash, err := p.m.deps.NewToken()
		if err != nil {
			return err
		}
		t.TokenHash = hash
		if _, err := p.m.deps.Terminals.AddTerminal(ctx, t); err != nil {
			return err
		}
		token = tok
		return nil
	}, func(err error) {
		note(p.msg, err, "common.saved")
		if err != nil {
			return
		}
		shown := widget.NewEntry()
		shown.SetText(token)
		dialog.ShowCustom(tr("terminals.token_title"), tr("common.ok"),
			container.NewVBox(widget.NewLabel(tr("terminals.token_once")), shown), p.m.w)
		p.load()
	})
}

func (p *terminalsPage) revoke(id int64) {
	p.m.async(func(ctx context.Context) error {
		return p.m.deps.Terminals.RevokeTerminal(ctx, id)
	}, func(err error) {
		note(p.msg, err, "terminals.revoked")
		p.load()
	})
}
