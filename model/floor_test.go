package model

import "testing"

// The floor (a handheld, FloorWindow) acts on passed tickets of any window,
// and only to requeue or cancel them: every other transition from every
// state is refused with forbidden or as illegal, and changes nothing.
func TestFloorRequeuesOrCancelsPassedOnly(t *testing.T) {
	floorOps := map[string]func(Ticket) (Ticket, error){
		"call":             func(t Ticket) (Ticket, error) { return Call(t, FloorWindow, now) },
		"recall":           func(t Ticket) (Ticket, error) { return Recall(t, FloorWindow, now) },
		"pass":             func(t Ticket) (Ticket, error) { return Pass(t, FloorWindow) },
		"undo-pass":        func(t Ticket) (Ticket, error) { return UndoPass(t, FloorWindow, now) },
		"requeue":          func(t Ticket) (Ticket, error) { return Requeue(t, FloorWindow, "") },
		"start":            func(t Ticket) (Ticket, error) { return Start(t, FloorWindow, now) },
		"finish":           func(t Ticket) (Ticket, error) { return Finish(t, FloorWindow, now) },
		"cancel":           func(t Ticket) (Ticket, error) { return Cancel(t, FloorWindow, "", now) },
		"transfer-window":  func(t Ticket) (Ticket, error) { return Transfer(t, FloorWindow, TransferTarget{Window: 4}) },
		"transfer-service": func(t Ticket) (Ticket, error) { return Transfer(t, FloorWindow, TransferTarget{Service: "B"}) },
	}
	allowed := map[string]Status{"requeue": Waiting, "cancel": Cancelled}
	for _, from := range []Status{Waiting, Called, Passed, Serving, Done, Cancelled} {
		for name, fn := range floorOps {
			in := ticket(from, 3, 2)
			if from == Waiting {
				in.Window = 0
			}
			out, err := fn(in)
			want, ok := allowed[name]
			if from == Passed && ok {
				if err != nil || out.Status != want {
					t.Errorf("floor %s of a passed ticket: %+v %v, want %s", name, out, err, want)
				}
				continue
			}
			if err == nil {
				t.Errorf("floor %s of a %s ticket was allowed: %+v", name, from, out)
				continue
			}
			if c := ErrorCode(err); c != EForbidden && c != EInvalidTransition && c != EInvalidInput {
				t.Errorf("floor %s of a %s ticket: code %s", name, from, c)
			}
		}
	}
	// Whichever window passed it: the customer is on the floor, not there.
	for _, w := range []int{1, 3, 7} {
		out, err := Requeue(ticket(Passed, w, 2), FloorWindow, "")
		if err != nil || out.Status != Waiting || out.Window != 0 || out.Requeued != 1 {
			t.Errorf("floor requeue of window %d's passed ticket: %+v %v", w, out, err)
		}
	}
	// A waiting ticket is nobody's on the floor to drop (model.Cancel).
	if _, err := Cancel(ticket(Waiting, 0, 0), FloorWindow, "", now); ErrorCode(err) != EForbidden {
		t.Errorf("the floor cancelled a waiting ticket: %v", err)
	}
}

// A number reads back into the code and sequence FormatNumber made it
// from, however the staff typed it; anything else is no number.
func TestParseNumber(t *testing.T) {
	for _, c := range []struct {
		in   string
		code string
		seq  int
	}{{"A012", "A", 12}, {" a12 ", "A", 12}, {"VIP1000", "VIP", 1000}, {FormatNumber("B", 7, 3), "B", 7}} {
		code, seq, ok := ParseNumber(c.in)
		if !ok || code != c.code || seq != c.seq {
			t.Errorf("ParseNumber(%q) = %q %d %v", c.in, code, seq, ok)
		}
	}
	for _, bad := range []string{"", "A", "12", "A0", "A-1", "A1B", "ÄA1", "A12345678901", "ABCDEFGHIJKLMNOPQ1"} {
		if _, _, ok := ParseNumber(bad); ok {
			t.Errorf("ParseNumber(%q) accepted", bad)
		}
	}
}

// A passed ticket of a closed business day stays closed: the floor neither
// requeues nor cancels it, and no window requeues it (it would wait on a
// day no window calls and change that day's report); the desk rule the
// caller screen asks agrees.
func TestOtherDayPassedStaysClosed(t *testing.T) {
	old := ticket(Passed, 3, 2)
	old.BusinessDate = "2026-11-30"
	const today = "2026-12-01"
	for name, fn := range map[string]func() (Ticket, error){
		"floor requeue":  func() (Ticket, error) { return Requeue(old, FloorWindow, today) },
		"floor cancel":   func() (Ticket, error) { return Cancel(old, FloorWindow, today, now) },
		"window requeue": func() (Ticket, error) { return Requeue(old, 3, today) },
	} {
		if out, err := fn(); ErrorCode(err) != EOtherDay || out.Status != Passed {
			t.Errorf("%s of yesterday's passed ticket: %+v %v, want %s", name, out, err, EOtherDay)
		}
	}
	if (Desk{Window: 3, Status: WindowOpen, Today: today}).Allows(ActRequeue, &old) {
		t.Error("the desk offers requeue of yesterday's ticket")
	}
	cur := old
	cur.BusinessDate = today
	if out, err := Requeue(cur, FloorWindow, today); err != nil || out.Status != Waiting {
		t.Errorf("floor requeue of today's passed ticket: %+v %v", out, err)
	}
}
