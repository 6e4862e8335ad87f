package model

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// A clerk switches only among the services the manager allowed; a window
// never narrowed allows what it serves.
func TestCheckSwitch(t *testing.T) {
	w := Window{Number: 2, Services: []string{"A"}, Allowed: []string{"A", "B"}}
	for _, ok := range [][]string{{"B"}, {"A", "B"}, {"A"}, {}} {
		if err := CheckSwitch(w, ok); err != nil {
			t.Errorf("switch to %v: %v", ok, err)
		}
	}
	for _, bad := range [][]string{{"V"}, {"A", "V"}} {
		if err := CheckSwitch(w, bad); !IsCode(err, EForbidden) {
			t.Errorf("switch to %v: %v, want forbidden", bad, err)
		}
	}
	if err := CheckSwitch(w, []string{"B", "B"}); !IsCode(err, EInvalidInput) {
		t.Errorf("a service twice: %v", err)
	}
	plain := Window{Number: 1, Services: []string{"A", "V"}}
	if !plain.Allows("V") || plain.Allows("B") {
		t.Error("a window with no allowed list must allow exactly what it serves")
	}
	if got := AllowedUnion([]string{"B"}, []string{"A", "B"}); !slices.Equal(got, []string{"B", "A"}) {
		t.Errorf("union %v", got)
	}
}

// Lunch is its own window status: on the wire as "lunch", no calls, no
// transfers in, its own label.
func TestLunchStatus(t *testing.T) {
	s, err := ParseWindowStatus("lunch")
	if err != nil || s != WindowLunch || s.String() != "lunch" {
		t.Fatalf("parse lunch: %v %v", s, err)
	}
	if !slices.Contains(WindowStatuses, WindowLunch) {
		t.Fatal("lunch missing from WindowStatuses")
	}
	d := Desk{Window: 3, Status: WindowLunch, Today: "2026-03-02"}
	if err := d.CanCall(ActCall); !IsCode(err, EWindowNotOpen) || !strings.Contains(ErrorMessage(err), "午休") {
		t.Errorf("call at lunch: %v", err)
	}
	if err := d.CanReceive(); !IsCode(err, EWindowNotOpen) || !strings.Contains(ErrorMessage(err), "午休") {
		t.Errorf("transfer to a window at lunch: %v", err)
	}
	if d.Allows(ActCall, nil) {
		t.Error("call offered at lunch")
	}
}

// Requeue marks the ticket, and the mark stays through its next call,
// start and finish.
func TestRequeueMarks(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	tk := Ticket{Number: "A012", Status: Passed, Window: 3}
	tk, err := Requeue(tk, 3, "")
	if err != nil || tk.Requeued != 1 || tk.Status != Waiting {
		t.Fatalf("requeue: %+v %v", tk, err)
	}
	if tk, err = Call(tk, 3, now); err != nil {
		t.Fatal(err)
	}
	if tk, err = Pass(tk, 3); err != nil {
		t.Fatal(err)
	}
	if tk, err = Requeue(tk, 3, ""); err != nil || tk.Requeued != 2 {
		t.Fatalf("second requeue: %+v %v", tk, err)
	}
	tk, _ = Call(tk, 3, now)
	tk, _ = Start(tk, 3, now)
	if tk, err = Finish(tk, 3, now); err != nil || tk.Requeued != 2 {
		t.Fatalf("finished: %+v %v", tk, err)
	}
}
