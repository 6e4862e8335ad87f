package model

import (
	"slices"
	"testing"
)

func TestHeld(t *testing.T) {
	for _, c := range []struct {
		s      Status
		window int
		want   bool
	}{
		{Waiting, 0, false}, {Called, 3, true}, {Serving, 3, true}, {Passed, 3, false},
		{Done, 3, false}, {Cancelled, 3, false}, {Called, 0, false},
	} {
		if got := Held(ticket(c.s, c.window, 1)); got != c.want {
			t.Errorf("Held(%v at window %d) = %v, want %v", c.s, c.window, got, c.want)
		}
	}
}

var actionNames = map[Action]string{
	ActCall: "call", ActRecall: "recall", ActPass: "pass", ActStart: "start", ActFinish: "finish",
	ActTransfer: "transfer", ActCancel: "cancel", ActUndoPass: "undo-pass", ActRequeue: "requeue",
}

// allowed lists the actions d allows on t, in Action order.
func allowed(d Desk, t *Ticket) []string {
	var out []string
	for a := ActCall; a <= ActRequeue; a++ {
		if d.Allows(a, t) {
			out = append(out, actionNames[a])
		}
	}
	return out
}

const today = "2026-11-30"

func held(s Status, date string) *Ticket {
	t := ticket(s, 3, 1)
	t.BusinessDate = date
	return &t
}

// The clerk's buttons, as README's busy-window rule and the state machine
// say: call-next while a called ticket is held, not while serving; a
// ticket from an earlier day blocks nothing; a paused window calls nobody.
func TestDeskAllowsOnTheCurrentTicket(t *testing.T) {
	for _, c := range []struct {
		name   string
		status WindowStatus
		cur    *Ticket
		want   []string
	}{
		{"open, idle", WindowOpen, nil, []string{"call"}},
		{"open, called", WindowOpen, held(Called, today), []string{"call", "recall", "pass", "start", "transfer", "cancel"}},
		{"open, serving", WindowOpen, held(Serving, today), []string{"finish", "transfer"}},
		{"open, serving since yesterday", WindowOpen, held(Serving, "2026-11-29"), []string{"call", "finish", "transfer"}},
		{"paused, called", WindowPaused, held(Called, today), []string{"recall", "pass", "start", "transfer", "cancel"}},
		{"closed, idle", WindowClosed, nil, nil},
	} {
		d := Desk{Window: 3, Status: c.status, Current: c.cur, Today: today}
		if got := allowed(d, c.cur); !slices.Equal(got, c.want) {
			t.Errorf("%s: allowed %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDeskAllowsOnAPassedTicket(t *testing.T) {
	passed := held(Passed, today)
	other := ticket(Passed, 4, 1)
	for _, c := range []struct {
		name   string
		status WindowStatus
		cur    *Ticket
		on     *Ticket
		want   []string
	}{
		{"open, idle", WindowOpen, nil, passed, []string{"call", "cancel", "undo-pass", "requeue"}},
		{"open, called", WindowOpen, held(Called, today), passed, []string{"call", "cancel", "undo-pass", "requeue"}},
		{"open, serving", WindowOpen, held(Serving, today), passed, []string{"cancel", "requeue"}},
		{"paused, idle", WindowPaused, nil, passed, []string{"cancel", "requeue"}},
		{"another window's", WindowOpen, nil, &other, []string{"call"}},
	} {
		d := Desk{Window: 3, Status: c.status, Current: c.cur, Today: today}
		if got := allowed(d, c.on); !slices.Equal(got, c.want) {
			t.Errorf("%s: allowed %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDeskRefusals(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		code string
	}{
		{"call at a paused window", Desk{Window: 3, Status: WindowPaused, Today: today}.CanCall(ActCall), EWindowNotOpen},
		{"call while serving", Desk{Window: 3, Status: WindowOpen, Current: held(Serving, today), Today: today}.CanCall(ActCall), EConflict},
		{"undo-pass while serving", Desk{Window: 3, Status: WindowOpen, Current: held(Serving, today), Today: today}.CanCall(ActUndoPass), EConflict},
		{"transfer to a closed window", Desk{Window: 3, Status: WindowClosed, Today: today}.CanReceive(), EWindowNotOpen},
		{"transfer to a window with a called ticket", Desk{Window: 3, Status: WindowOpen, Current: held(Called, today), Today: today}.CanReceive(), EConflict},
	} {
		if !IsCode(c.err, c.code) {
			t.Errorf("%s: %v, want %s", c.name, c.err, c.code)
		}
	}
	for _, d := range []Desk{
		{Window: 3, Status: WindowPaused, Today: today},
		{Window: 3, Status: WindowOpen, Current: held(Serving, "2026-11-29"), Today: today},
		{Window: 3, Status: WindowOpen, Current: held(Passed, today), Today: today},
	} {
		if err := d.CanReceive(); err != nil {
			t.Errorf("transfer to %+v refused: %v", d, err)
		}
	}
}
