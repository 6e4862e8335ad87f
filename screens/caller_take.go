package screens

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// callerTake is the clerk's 代取号 (seed 003 §2.1): a number taken at the
// window for a customer, numbered by the store like any other and recorded
// as the window's (model.SourceWindow). It prints on this PC's own printer
// when it has one; a kiosk's printer is not reachable from a window PC, so
// without one the number is shown large for the clerk to tell the
// customer. Customers as records do not exist yet, so none is named.
type callerTake struct {
	c       *Caller
	printer PrintQueue // nil: this PC has no printer
	btn     *widget.Button
	// shown is the last number taken here and what the clerk should do
	// with it; UI goroutine only.
	shown, note string
}

func newCallerTake(c *Caller) *callerTake {
	k := &callerTake{c: c}
	k.btn = widget.NewButton(tr("caller.take"), k.ask)
	return k
}

// SetPrinter gives the caller this PC's own ticket printer for numbers
// taken at the window; nil (the default) means none. Call it on the UI
// goroutine.
func (c *Caller) SetPrinter(p PrintQueue) { c.take.printer = p }

// services are the enabled services, the ones a number can be taken for.
func (k *callerTake) services() []model.ServiceCount {
	var out []model.ServiceCount
	for _, s := range k.c.snap.Services {
		if s.Enabled {
			out = append(out, s)
		}
	}
	return out
}

func (k *callerTake) refresh(ok bool) { enable(k.btn, ok && len(k.services()) > 0) }

// ask offers the services and a priority, then takes the number.
func (k *callerTake) ask() {
	svcs := k.services()
	names := make([]string, len(svcs))
	for i, s := range svcs {
		names[i] = s.Code + " " + s.Name
	}
	pick := widget.NewSelect(names, nil)
	if len(names) > 0 {
		pick.SetSelectedIndex(0)
	}
	vip := widget.NewCheck(tr("caller.take_priority"), nil)
	items := []*widget.FormItem{widget.NewFormItem(tr("caller.take_service"), pick), widget.NewFormItem("", vip)}
	dialog.ShowForm(tr("caller.take_title"), tr("caller.take"), tr("common.cancel"), items, func(ok bool) {
		if i := pick.SelectedIndex(); ok && i >= 0 {
			k.takeFor(svcs[i].Code, vip.Checked)
		}
	}, k.c.w)
}

// takeFor takes a number of service code for a customer; vip puts it
// first in its service, as the kiosk's VIP entry does.
func (k *callerTake) takeFor(code string, vip bool) {
	prio := 0
	if vip {
		prio = model.MinPriority
	}
	c, printer := k.c, k.printer
	c.busy = true
	c.msg.SetText("")
	c.refresh()
	var t model.Ticket
	var fault string
	c.async(func(ctx context.Context) error {
		var err error
		if t, err = c.st.TakeTicket(ctx, code, prio, model.RoleCaller.TicketSource()); err != nil {
			return err
		}
		if printer != nil {
			pos, _ := c.st.Position(ctx, t.ID) // decorates the slip; the number stands without it
			printer.Submit(t, pos)
			fault = printer.Fault()
		}
		return nil
	}, func(err error) {
		c.busy = false
		c.refresh()
		if err != nil {
			c.msg.SetText(errText(err))
			return
		}
		k.show(t, printer != nil, fault)
	})
}

// show tells the clerk the number in large type, and whether it printed.
func (k *callerTake) show(t model.Ticket, printed bool, fault string) {
	k.shown = t.Number
	switch {
	case !printed:
		k.note = tr("caller.taken_tell")
	case fault != "":
		k.note = tr("caller.taken_fault", kv("Fault", fault))
	default:
		k.note = tr("caller.taken_printed")
	}
	number := bigText(t.Number, 64, colBrand)
	note := widget.NewLabelWithStyle(k.note, fyne.TextAlignCenter, fyne.TextStyle{})
	note.Wrapping = fyne.TextWrapWord
	dialog.ShowCustom(tr("caller.take_title"), tr("common.ok"), container.NewVBox(number, note), k.c.w)
}
