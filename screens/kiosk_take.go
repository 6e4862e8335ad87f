package screens

import (
	"context"
	"time"

	"jiaohao/model"
)

// colPaper is the kiosk's background.
var colPaper = colHallText

// take issues a number for service code: the store numbers it (never this
// PC), the number appears at once, and the ticket goes to the print queue
// exactly once, off the UI goroutine.
func (k *Kiosk) take(code string) {
	if ok, _ := k.open(); !ok || k.busy {
		return
	}
	prio := 0
	if k.vip {
		prio = model.MinPriority
	}
	who := k.ident.who // taken for the identified customer, once
	k.busy, k.vip = true, false
	if who != nil {
		k.forget()
	}
	k.refresh()
	var t model.Ticket
	var pos model.Position
	var fault string
	k.async(func(ctx context.Context) error {
		var err error
		if who != nil {
			t, err = k.st.(model.CustomerDesk).TakeTicketFor(ctx, code, who.ID, model.RoleKiosk.TicketSource())
		} else {
			t, err = k.st.TakeTicket(ctx, code, prio, model.RoleKiosk.TicketSource())
		}
		if err != nil {
			return err
		}
		// The position only decorates the ticket; without it the
		// number still stands.
		pos, _ = k.st.Position(ctx, t.ID)
		k.printer.Submit(t, pos)
		fault = k.printer.Fault()
		return nil
	}, func(err error) {
		k.busy = false
		if err != nil {
			k.errMsg, k.errUntil = customerErrText(err), time.Now().Add(k.ShowFor)
			k.refresh()
			return
		}
		k.errUntil = time.Time{}
		k.showTicket(t, pos, fault, prio != 0 || who != nil && who.Priority != 0)
		k.refresh()
	})
}

// showTicket puts the new number over the tiles for ShowFor.
func (k *Kiosk) showTicket(t model.Ticket, pos model.Position, fault string, vip bool) {
	vipText := ""
	switch {
	case t.Level != "" && vip:
		vipText = tr("kiosk.level_ticket", kv("Level", t.Level)) // 贵宾客户 · 优先办理
	case t.Level != "":
		vipText = tr("kiosk.level_only", kv("Level", t.Level))
	case vip:
		vipText = tr("kiosk.vip_ticket")
	}
	setText(k.vipTag, vipText)
	setText(k.number, t.Number)
	setText(k.area, waitArea(k.snap, t.Service))
	setText(k.ahead, tr("kiosk.ahead", kv("N", pos.AheadText())))
	setText(k.eta, etaText(pos))
	if fault != "" {
		k.printing.Color = k.pal.warn
		setText(k.printing, tr("kiosk.print_fault"))
	} else {
		k.printing.Color = k.pal.ok
		setText(k.printing, tr("kiosk.printing"))
	}
	k.printing.Refresh()
	k.hideAt = time.Now().Add(k.ShowFor)
	k.overlay.Show()
	k.content.Refresh()
}

// Shown is the number on screen now, or "" when the tiles show.
func (k *Kiosk) Shown() string {
	if !k.overlay.Visible() {
		return ""
	}
	return k.number.Text
}

func (k *Kiosk) hideTicket() {
	k.hideAt = time.Time{}
	k.overlay.Hide()
	k.content.Refresh()
}

// waitArea says which area the customer of a service waits in, "" when
// the branch has one area: nothing to choose.
func waitArea(s model.Snapshot, service string) string {
	a, ok := s.AreaOf(service)
	if !ok || len(s.Areas) < 2 {
		return ""
	}
	return tr("kiosk.area", kv("Area", a.Label()))
}

// etaText is the wait of pos; with no open window serving its service
// (lunch, paused, closed) no one calls it, so there is no wait to promise.
func etaText(pos model.Position) string {
	if pos.NoWindow {
		return tr("kiosk.no_window")
	}
	secs := pos.ETASeconds
	if secs <= 0 {
		return tr("kiosk.no_wait")
	}
	return tr("kiosk.eta", kv("M", (secs+59)/60))
}
