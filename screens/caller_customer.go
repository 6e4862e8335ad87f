package screens

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// callerCustomer names the registered customer of the ticket the window
// holds, with their level and the manager's note, so the clerk greets a
// 贵宾 as one. The name is asked of the store for this window only
// (model.WindowCustomers): it never travels with the ticket to the hall.
type callerCustomer struct {
	c     *Caller
	lbl   *widget.Label
	forID int64 // the ticket the line is for; 0: none
}

func newCallerCustomer(c *Caller) *callerCustomer {
	l := widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	l.Importance = widget.WarningImportance
	l.Hide()
	return &callerCustomer{c: c, lbl: l}
}

// refresh follows the window's ticket: the level at once (the ticket
// carries it), the name when the store answers.
func (cc *callerCustomer) refresh() {
	cur := cc.c.cur
	v, can := cc.c.st.(model.WindowCustomers)
	if cur == nil || cur.CustomerID == 0 || !can {
		cc.forID = 0
		if cc.lbl.Visible() {
			cc.lbl.Hide()
		}
		return
	}
	if cc.forID == cur.ID {
		return
	}
	cc.forID = cur.ID
	id := cur.ID
	cc.lbl.SetText(cur.Level)
	cc.lbl.Show()
	var card model.CustomerCard
	cc.c.async(func(ctx context.Context) error {
		var err error
		card, err = v.WindowCustomer(ctx, cc.c.window)
		return err
	}, func(err error) {
		// The store answers for the ticket the window holds when it is
		// asked, which may already be the next one.
		if cc.forID != id || err != nil || card.Ticket != id {
			return // the window moved on, or the name is not to be had: the level stays
		}
		text := tr("caller.customer", kv("Level", card.Level, "Name", card.Name, "Number", card.Number))
		if card.Note != "" {
			text += " · " + card.Note
		}
		cc.lbl.SetText(text)
	})
}

// Customer is the customer line shown now, "" when hidden.
func (c *Caller) Customer() string {
	if !c.who.lbl.Visible() {
		return ""
	}
	return c.who.lbl.Text
}
