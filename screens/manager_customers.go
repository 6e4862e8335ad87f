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

// customersPage is the manager's customer register (客户管理): find a
// customer by number, phone, name or card/ID number, add or edit one
// (ID and card numbers are typed into password fields and only their
// last 4 digits ever come back), disable one, import a CSV file with a
// report of every bad line, the levels, and whether the kiosks offer
// identification (customer_ident).
type customersPage struct {
	m                           *Manager
	query                       *widget.Entry
	rows                        *fyne.Container
	editing                     int64 // the customer the form edits; 0: a new one
	number, name, phone, note   *widget.Entry
	idNo, cardNo                *widget.Entry
	level                       *widget.Select
	enabled                     *widget.Check
	save, fresh, importB        *widget.Button
	levelRows                   *fyne.Container
	levels                      []model.CustomerLevel
	levelName, levelPrio, lvSvc *widget.Entry
	addLevel                    *widget.Button
	ident                       *widget.Check
	report, msg                 *widget.Label
	content                     fyne.CanvasObject
}

// customerKeys are the settings this page owns, left off the general page.
var customerKeys = []string{"customer_ident"}

func newCustomersPage(m *Manager) *customersPage {
	p := &customersPage{m: m, rows: container.NewVBox(), levelRows: container.NewVBox(), msg: widget.NewLabel(""), report: widget.NewLabel("")}
	p.msg.Wrapping, p.report.Wrapping = fyne.TextWrapWord, fyne.TextWrapWord
	p.report.Importance = widget.DangerImportance
	p.query = widget.NewEntry()
	p.query.SetPlaceHolder(tr("cust.search_hint"))
	p.query.OnSubmitted = func(string) { p.load() }
	search := widget.NewButton(tr("cust.search"), p.load)
	p.number, p.name, p.phone, p.note = widget.NewEntry(), widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	p.idNo, p.cardNo = widget.NewPasswordEntry(), widget.NewPasswordEntry()
	p.level = widget.NewSelect(nil, nil)
	p.enabled = widget.NewCheck(tr("cust.enabled"), nil)
	p.enabled.SetChecked(true)
	p.save = widget.NewButton(tr("common.save"), p.submit)
	p.save.Importance = widget.HighImportance
	p.fresh = widget.NewButton(tr("cust.new"), p.clearForm)
	p.importB = widget.NewButton(tr("cust.import"), p.pickFile)
	form := widget.NewForm(widget.NewFormItem(tr("cust.number"), p.number), widget.NewFormItem(tr("cust.name"), p.name),
		widget.NewFormItem(tr("cust.phone"), p.phone), widget.NewFormItem(tr("cust.level"), p.level),
		widget.NewFormItem(tr("cust.note"), p.note), widget.NewFormItem(tr("cust.id_number"), p.idNo),
		widget.NewFormItem(tr("cust.card_number"), p.cardNo), widget.NewFormItem("", p.enabled))
	p.levelName, p.levelPrio, p.lvSvc = widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	p.levelPrio.SetPlaceHolder(tr("cust.level_prio_hint"))
	p.lvSvc.SetPlaceHolder(tr("cust.level_svc_hint"))
	p.addLevel = widget.NewButton(tr("cust.level_add"), p.saveLevel)
	levelForm := widget.NewForm(widget.NewFormItem(tr("cust.level"), p.levelName),
		widget.NewFormItem(tr("cust.level_prio"), p.levelPrio), widget.NewFormItem(tr("cust.level_svc"), p.lvSvc))
	p.ident = widget.NewCheck(tr("cust.ident"), nil)
	p.content = container.NewVScroll(container.NewVBox(
		widget.NewCard(tr("manager.customers"), tr("cust.hint"), container.NewVBox(
			container.NewBorder(nil, nil, nil, search, p.query), p.rows)),
		widget.NewCard(tr("cust.edit"), "", container.NewVBox(form, container.NewHBox(p.save, p.fresh))),
		widget.NewCard(tr("cust.import_title"), tr("cust.import_hint"), container.NewVBox(p.importB, p.report)),
		widget.NewCard(tr("cust.levels"), "", container.NewVBox(p.levelRows, levelForm, p.addLevel)),
		p.ident, p.msg))
	if _, ok := p.register(); !ok {
		for _, b := range []interface{ Disable() }{p.save, p.importB, p.addLevel, p.ident, search} {
			b.Disable()
		}
		p.msg.SetText(tr("cust.unavailable"))
	}
	return p
}

func (p *customersPage) register() (model.CustomerRegister, bool) {
	r, ok := p.m.st.(model.CustomerRegister)
	return r, ok
}

// show takes the branch settings: customer_ident.
func (p *customersPage) show(st model.Settings, err error) {
	if err != nil {
		return
	}
	p.ident.OnChanged = nil
	p.ident.SetChecked(st.CustomerIdent)
	p.ident.OnChanged = func(on bool) {
		p.m.async(func(ctx context.Context) error {
			return p.m.st.SetSetting(ctx, "customer_ident", strconv.FormatBool(on))
		}, func(err error) { note(p.msg, err, "common.saved") })
	}
}

// load reads the customers the search finds and the levels.
func (p *customersPage) load() {
	r, ok := p.register()
	if !ok {
		return
	}
	q := p.query.Text
	loadInto(p.m, p.msg, func(ctx context.Context) ([]model.Customer, error) { return r.Customers(ctx, q, 100) }, func(got []model.Customer) {
		p.rows.RemoveAll()
		for _, c := range got {
			p.rows.Add(p.row(c))
		}
		if len(got) == 0 {
			p.rows.Add(widget.NewLabel(tr("cust.none")))
		}
		p.content.Refresh()
	})
	loadInto(p.m, p.msg, r.CustomerLevels, p.showLevels)
}

func (p *customersPage) showLevels(got []model.CustomerLevel) {
	p.levels = got
	names := make([]string, len(got))
	p.levelRows.RemoveAll()
	for i, l := range got {
		names[i] = l.Name
		prio, svc := tr("cust.prio_service"), l.Service
		if l.Priority != 0 {
			prio = strconv.Itoa(l.Priority)
		}
		if svc == "" {
			svc = "—"
		}
		p.levelRows.Add(widget.NewLabel(tr("cust.level_line", kv("Name", l.Name, "Priority", prio, "Service", svc))))
	}
	p.level.Options = names
	if p.level.Selected == "" && len(names) > 0 {
		p.level.SetSelected(names[0])
	}
	p.level.Refresh()
	p.content.Refresh()
}

// customerLine is one customer as the list shows it: never more of a
// number than its last 4 digits.
func customerLine(c model.Customer) string {
	extra := []string{c.Level}
	if c.Phone != "" {
		extra = append(extra, c.Phone)
	}
	if c.IDLast4 != "" {
		extra = append(extra, tr("cust.id_tail", kv("N", c.IDLast4)))
	}
	if c.CardLast4 != "" {
		extra = append(extra, tr("cust.card_tail", kv("N", c.CardLast4)))
	}
	if !c.Enabled {
		extra = append(extra, tr("staff.disabled"))
	}
	return c.Number + " " + c.Name + " · " + strings.Join(extra, " · ")
}

func (p *customersPage) row(c model.Customer) fyne.CanvasObject {
	edit := widget.NewButton(tr("cust.edit_one"), func() { p.edit(c) })
	return container.NewBorder(nil, nil, nil, edit, widget.NewLabel(customerLine(c)))
}

// edit fills the form with a customer; the number fields stay empty,
// which keeps the numbers stored.
func (p *customersPage) edit(c model.Customer) {
	p.editing = c.ID
	p.number.SetText(c.Number)
	p.name.SetText(c.Name)
	p.phone.SetText(c.Phone)
	p.note.SetText(c.Note)
	p.level.SetSelected(c.Level)
	p.enabled.SetChecked(c.Enabled)
	p.idNo.SetText("")
	p.cardNo.SetText("")
}

func (p *customersPage) clearForm() {
	p.edit(model.Customer{Enabled: true, Level: p.level.Selected})
}

func (p *customersPage) submit() {
	r, _ := p.register()
	in := model.CustomerInput{
		Customer: model.Customer{ID: p.editing, Number: p.number.Text, Name: p.name.Text, Phone: p.phone.Text,
			Level: p.level.Selected, Note: p.note.Text, Enabled: p.enabled.Checked},
		IDNumber: p.idNo.Text, CardNumber: p.cardNo.Text,
	}
	p.m.async(func(ctx context.Context) error {
		_, err := r.SaveCustomer(ctx, in)
		return err
	}, func(err error) {
		note(p.msg, err, "common.saved")
		if err == nil {
			p.clearForm()
			p.load()
		}
	})
}

func (p *customersPage) saveLevel() {
	r, _ := p.register()
	prio := 0
	if s := strings.TrimSpace(p.levelPrio.Text); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			note(p.msg, model.Errorf(model.EInvalidInput, "%s", tr("cust.level_prio_hint")), "")
			return
		}
		prio = n
	}
	l := model.CustomerLevel{Name: strings.TrimSpace(p.levelName.Text), Priority: prio, Service: strings.ToUpper(p.lvSvc.Text), SortOrder: len(p.levels) + 1}
	for _, old := range p.levels { // a level's own name edits it: its priority and service
		if old.Name == l.Name {
			l.ID, l.SortOrder = old.ID, old.SortOrder
		}
	}
	p.m.async(func(ctx context.Context) error {
		_, err := r.SaveCustomerLevel(ctx, l)
		return err
	}, func(err error) {
		note(p.msg, err, "common.saved")
		if err == nil {
			p.levelName.SetText("")
			p.levelPrio.SetText("")
			p.lvSvc.SetText("")
			p.load()
		}
	})
}

func (p *customersPage) pickFile() {
	dialog.ShowFileOpen(func(f fyne.URIReadCloser, err error) {
		if err != nil || f == nil {
			return
		}
		defer f.Close()
		data, err := model.ReadCustomerFile(f)
		if err != nil {
			note(p.msg, err, "")
			return
		}
		p.importData(data)
	}, p.m.w)
}

// importData imports a register file: all rows or, on any bad one, none,
// with every bad line named in the report.
func (p *customersPage) importData(data []byte) {
	r, _ := p.register()
	var res model.ImportResult
	p.report.SetText("")
	p.m.async(func(ctx context.Context) error {
		rows, err := model.ParseCustomerCSV(data)
		if err != nil {
			return err
		}
		res, err = r.ImportCustomers(ctx, rows)
		return err
	}, func(err error) {
		if err != nil {
			note(p.msg, err, "")
			return
		}
		if len(res.Bad) > 0 {
			lines := []string{tr("cust.import_refused", kv("N", len(res.Bad)))}
			for _, b := range res.Bad {
				lines = append(lines, tr("cust.import_line", kv("Line", b.Line, "Field", fieldName(b.Field), "Message", b.Message)))
			}
			p.report.SetText(strings.Join(lines, "\n"))
			p.msg.SetText("")
			return
		}
		p.msg.Importance = widget.SuccessImportance
		p.msg.SetText(tr("cust.imported", kv("Added", res.Added, "Updated", res.Updated)))
		p.load()
	})
}

// fieldName is a bad row's field as the report names it.
func fieldName(f string) string {
	switch f {
	case "number":
		return tr("cust.field_number")
	case "name":
		return tr("cust.field_name")
	case "phone":
		return tr("cust.field_phone")
	case "level":
		return tr("cust.field_level")
	case "note":
		return tr("cust.field_note")
	case "id_number":
		return tr("cust.field_id_number")
	case "card_number":
		return tr("cust.field_card_number")
	}
	return tr("cust.field_line")
}
