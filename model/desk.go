package model

import "time"

// Held reports whether a ticket occupies its window's desk: called to it
// or being served there. A passed ticket keeps its window but not the desk.
func Held(t Ticket) bool {
	return t.Window != 0 && (t.Status == Called || t.Status == Serving)
}

// Desk is a window as the rules for bringing it a customer see it: its
// number and status, the ticket it holds now (nil: none) and the business
// day. The store checks these rules inside its transaction and the caller
// screen asks the same ones which buttons to offer, so the two agree.
type Desk struct {
	Window  int
	Status  WindowStatus
	Current *Ticket
	Today   string // business date, YYYY-MM-DD
}

// CanCall says whether the window may bring a customer by act (ActCall for
// call-next, or ActUndoPass). It must be open. A called ticket it still
// holds does not stop it (seed 002 §5.1 has one window call ten times in a
// row; the sweeper times the earlier one out); one being served does: a
// desk never has two customers.
func (d Desk) CanCall(act Action) error {
	if d.Status != WindowOpen {
		verb := "叫号"
		if act == ActUndoPass {
			verb = "召回过号"
		}
		return Errorf(EWindowNotOpen, "%d 号窗口已%s，不能%s", d.Window, WindowStatusLabel(d.Status), verb)
	}
	return d.free(func(t Ticket) bool { return t.Status == Serving })
}

// CanReceive says whether a ticket may be transferred to the window: it
// must not be closed or at lunch (nobody is at the desk), and hold nobody.
func (d Desk) CanReceive() error {
	if d.Status == WindowClosed || d.Status == WindowLunch {
		return Errorf(EWindowNotOpen, "%d 号窗口%s，不能转入", d.Window, map[WindowStatus]string{WindowClosed: "已关闭", WindowLunch: "午休中"}[d.Status])
	}
	return d.free(Held)
}

// free refuses when the held ticket blocks; a ticket left from an earlier
// day blocks nothing, so a window is not stuck after a night.
func (d Desk) free(blocks func(Ticket) bool) error {
	c := d.Current
	if c == nil || c.BusinessDate != d.Today || !blocks(*c) {
		return nil
	}
	return Errorf(EConflict, "%d 号窗口的 %s %s，请先处理 (window busy)", d.Window, c.Number, StatusLabel(c.Status))
}

// Action is one thing a window's clerk does.
type Action int

const (
	ActCall Action = iota + 1
	ActRecall
	ActPass
	ActStart
	ActFinish
	ActTransfer
	ActCancel
	ActUndoPass
	ActRequeue
)

// Allows reports whether the window may do act on ticket t now (t is
// ignored for call-next): the state machine's answer plus the desk rule,
// the same checks the store makes. Transfer asks only whether t may leave;
// the target is checked when it is chosen.
func (d Desk) Allows(act Action, t *Ticket) bool {
	if act == ActCall {
		return d.CanCall(ActCall) == nil
	}
	if t == nil {
		return false
	}
	var err error
	var at time.Time // the transitions do not look at the time to decide
	switch act {
	case ActRecall:
		_, err = Recall(*t, d.Window, at)
	case ActPass:
		_, err = Pass(*t, d.Window)
	case ActStart:
		_, err = Start(*t, d.Window, at)
	case ActFinish:
		_, err = Finish(*t, d.Window, at)
	case ActTransfer:
		err = canLeave(*t, d.Window)
	case ActCancel:
		_, err = Cancel(*t, d.Window, d.Today, at)
	case ActUndoPass:
		if _, err = UndoPass(*t, d.Window, at); err == nil {
			err = d.CanCall(ActUndoPass)
		}
	case ActRequeue:
		_, err = Requeue(*t, d.Window, d.Today)
	default:
		return false
	}
	return err == nil
}

// WindowStatusLabel is the Chinese name of a window status, for messages.
func WindowStatusLabel(s WindowStatus) string {
	switch s {
	case WindowPaused:
		return "暂停"
	case WindowClosed:
		return "关闭"
	case WindowLunch:
		return "午休"
	}
	return "开放"
}
