package model

import (
	"testing"
	"time"
)

var now = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

func ticket(s Status, window, calls int) Ticket {
	return Ticket{ID: 1, Number: "A001", Service: "A", Status: s, Window: window, CallCount: calls, Lane: LaneNormal, Priority: 5}
}

// op applies one transition as window 3 (the manager is window 0).
type op struct {
	name string
	fn   func(Ticket) (Ticket, error)
}

var ops = []op{
	{"call", func(t Ticket) (Ticket, error) { return Call(t, 3, now) }},
	{"recall", func(t Ticket) (Ticket, error) { return Recall(t, 3, now) }},
	{"timeout", func(t Ticket) (Ticket, error) { return Timeout(t, 1) }},
	{"pass", func(t Ticket) (Ticket, error) { return Pass(t, 3) }},
	{"undo-pass", func(t Ticket) (Ticket, error) { return UndoPass(t, 3, now) }},
	{"requeue", func(t Ticket) (Ticket, error) { return Requeue(t, 3, "") }},
	{"start", func(t Ticket) (Ticket, error) { return Start(t, 3, now) }},
	{"finish", func(t Ticket) (Ticket, error) { return Finish(t, 3, now) }},
	{"cancel", func(t Ticket) (Ticket, error) { return Cancel(t, 3, "", now) }},
	{"transfer-window", func(t Ticket) (Ticket, error) { return Transfer(t, 3, TransferTarget{Window: 4}) }},
	{"transfer-service", func(t Ticket) (Ticket, error) { return Transfer(t, 3, TransferTarget{Service: "B"}) }},
}

// legal lists, per starting state, the operations that may happen and the
// state they lead to. Everything not listed must be refused.
var legal = map[Status]map[string]Status{
	Waiting: {"call": Called},
	Called: {"recall": Called, "timeout": Waiting, "pass": Passed, "start": Serving, "cancel": Cancelled,
		"transfer-window": Called, "transfer-service": Waiting},
	Passed:    {"undo-pass": Called, "requeue": Waiting, "cancel": Cancelled},
	Serving:   {"finish": Done, "transfer-window": Serving, "transfer-service": Waiting},
	Done:      {},
	Cancelled: {},
}

// forbidden lists what the state machine allows the manager (window 0) but
// not a window.
var forbidden = map[Status]map[string]bool{
	Waiting: {"cancel": true},
}

func TestEveryTransition(t *testing.T) {
	for from, allowed := range legal {
		for _, o := range ops {
			t.Run(from.String()+"/"+o.name, func(t *testing.T) {
				window := 3
				if from == Waiting {
					window = 0
				}
				in := ticket(from, window, 1)
				out, err := o.fn(in)
				want, ok := allowed[o.name]
				if forbidden[from][o.name] {
					if ErrorCode(err) != EForbidden {
						t.Fatalf("%s from %s by window 3: got %v (%s), want forbidden", o.name, from, err, ErrorCode(err))
					}
					return
				}
				if !ok {
					if ErrorCode(err) != EInvalidTransition {
						t.Fatalf("%s from %s: got %v (%s), want invalid_transition", o.name, from, err, ErrorCode(err))
					}
					return
				}
				if err != nil {
					t.Fatalf("%s from %s refused: %v", o.name, from, err)
				}
				if out.Status != want {
					t.Fatalf("%s from %s gave %s, want %s", o.name, from, out.Status, want)
				}
				if out.Number != in.Number {
					t.Fatalf("%s changed the number to %s", o.name, out.Number)
				}
			})
		}
	}
}

func TestCallSetsWindowAndCount(t *testing.T) {
	out, err := Call(ticket(Waiting, 0, 0), 3, now)
	if err != nil || out.Window != 3 || out.CallCount != 1 || out.CalledAt == nil || !out.CalledAt.Equal(now) {
		t.Fatalf("call: %+v %v", out, err)
	}
	if _, err := Call(ticket(Waiting, 0, 0), 0, now); ErrorCode(err) != EInvalidInput {
		t.Fatalf("call without window: %v", err)
	}
}

func TestRecallKeepsWindowAndCounts(t *testing.T) {
	out, _ := Recall(ticket(Called, 3, 1), 3, now)
	if out.Window != 3 || out.CallCount != 2 || out.Status != Called {
		t.Fatalf("recall: %+v", out)
	}
}

func TestTimeoutRecallPoolThenPassed(t *testing.T) {
	first, _ := Timeout(ticket(Called, 3, 1), 1)
	if first.Status != Waiting || first.Lane != LaneRecall || first.Window != 0 {
		t.Fatalf("first timeout should go to the recall pool: %+v", first)
	}
	second, _ := Timeout(ticket(Called, 3, 2), 1)
	if second.Status != Passed || second.Window != 3 {
		t.Fatalf("timeout past recall_max should pass and keep the window: %+v", second)
	}
	zero, _ := Timeout(ticket(Called, 3, 1), 0)
	if zero.Status != Passed {
		t.Fatalf("recall_max 0 passes on first timeout: %+v", zero)
	}
}

func TestOtherWindowIsRefused(t *testing.T) {
	for _, fn := range []func(Ticket) (Ticket, error){
		func(t Ticket) (Ticket, error) { return Recall(t, 4, now) },
		func(t Ticket) (Ticket, error) { return Pass(t, 4) },
		func(t Ticket) (Ticket, error) { return Start(t, 4, now) },
		func(t Ticket) (Ticket, error) { return Cancel(t, 4, "", now) },
		func(t Ticket) (Ticket, error) { return Transfer(t, 4, TransferTarget{Window: 1}) },
	} {
		if _, err := fn(ticket(Called, 3, 1)); ErrorCode(err) != EInvalidTransition {
			t.Fatalf("acting from another window: %v", err)
		}
	}
	if _, err := UndoPass(ticket(Passed, 3, 1), 4, now); ErrorCode(err) != EInvalidTransition {
		t.Fatalf("undo-pass from another window: %v", err)
	}
	if _, err := Requeue(ticket(Passed, 3, 1), 4, ""); ErrorCode(err) != EInvalidTransition {
		t.Fatalf("requeue from another window: %v", err)
	}
	if _, err := Finish(ticket(Serving, 3, 1), 4, now); ErrorCode(err) != EInvalidTransition {
		t.Fatalf("finish from another window: %v", err)
	}
	// The manager (window 0) may act on any window's ticket.
	if out, err := Pass(ticket(Called, 3, 1), 0); err != nil || out.Status != Passed {
		t.Fatalf("manager pass: %v", err)
	}
}

// A window cancels only what it holds or passed; a waiting ticket, even of
// a service the window serves, is the manager's to cancel.
func TestOnlyTheManagerCancelsWaiting(t *testing.T) {
	for _, w := range []int{1, 3, 4} {
		if _, err := Cancel(ticket(Waiting, 0, 0), w, "", now); ErrorCode(err) != EForbidden {
			t.Fatalf("window %d cancelled a waiting ticket: %v", w, err)
		}
	}
	if out, err := Cancel(ticket(Waiting, 0, 0), 0, "", now); err != nil || out.Status != Cancelled {
		t.Fatalf("manager cancel of a waiting ticket: %+v %v", out, err)
	}
	for _, s := range []Status{Called, Passed} {
		if out, err := Cancel(ticket(s, 3, 1), 3, "", now); err != nil || out.Status != Cancelled {
			t.Fatalf("window 3 cancelling its own %s ticket: %v", s, err)
		}
		if _, err := Cancel(ticket(s, 3, 1), 4, "", now); ErrorCode(err) != EInvalidTransition {
			t.Fatalf("window 4 cancelled window 3's %s ticket: %v", s, err)
		}
	}
}

func TestTransferTargets(t *testing.T) {
	tk := ticket(Serving, 3, 1)
	tk.ServeStartAt = &now
	out, _ := Transfer(tk, 3, TransferTarget{Service: "B"})
	if out.Service != "B" || out.Window != 0 || out.ServeStartAt != nil || out.Number != "A001" {
		t.Fatalf("transfer to service: %+v", out)
	}
	for _, bad := range []TransferTarget{{}, {Window: 4, Service: "B"}, {Window: 3}, {Service: "A"}} {
		if _, err := Transfer(ticket(Called, 3, 1), 3, bad); ErrorCode(err) != EInvalidInput {
			t.Fatalf("transfer to %+v: %v", bad, err)
		}
	}
}

func TestFormatNumberGrowsPastWidth(t *testing.T) {
	for _, c := range []struct {
		seq, width int
		want       string
	}{{1, 3, "A001"}, {999, 3, "A999"}, {1000, 3, "A1000"}, {7, 4, "A0007"}, {5, 0, "A005"}} {
		if got := FormatNumber("A", c.seq, c.width); got != c.want {
			t.Errorf("FormatNumber(%d, %d) = %s, want %s", c.seq, c.width, got, c.want)
		}
	}
}

func TestSettingsValidation(t *testing.T) {
	for _, bad := range [][2]string{{"call_timeout_s", "abc"}, {"call_timeout_s", "1"}, {"nope", "1"},
		{"business_hours", "9-5"}, {"business_hours", "17:00-09:00"}, {"vip_enabled", "maybe"}} {
		if err := ValidateSetting(bad[0], bad[1]); ErrorCode(err) != EInvalidInput {
			t.Errorf("%s=%q accepted", bad[0], bad[1])
		}
	}
	st := ParseSettings(map[string]string{"call_timeout_s": "180", "business_hours": "09:00-17:00", "recall_max": "oops"})
	if st.CallTimeout != 180*time.Second || st.RecallMax != 1 {
		t.Fatalf("parsed %+v", st)
	}
	loc := time.FixedZone("CST", 8*3600)
	if !st.InBusinessHours(time.Date(2026, 1, 1, 9, 0, 0, 0, loc)) || st.InBusinessHours(time.Date(2026, 1, 1, 17, 0, 0, 0, loc)) {
		t.Fatal("business hours boundaries wrong")
	}
}

func TestStatusNamesRoundTrip(t *testing.T) {
	for s := Waiting; s <= Cancelled; s++ {
		b, _ := s.MarshalText()
		var back Status
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Fatalf("%s did not round trip: %v", s, err)
		}
	}
	var s Status
	if err := s.UnmarshalText([]byte("gone")); ErrorCode(err) != EInvalidInput {
		t.Fatal("unknown status accepted")
	}
}

func TestVoiceSettings(t *testing.T) {
	for _, good := range [][2]string{{"voice_engine", "espeak-ng"}, {"voice_engine", "sapi"}, {"voice_chime", "false"}} {
		if err := ValidateSetting(good[0], good[1]); err != nil {
			t.Errorf("%s=%s refused: %v", good[0], good[1], err)
		}
	}
	for _, bad := range [][2]string{{"voice_engine", "festival"}, {"voice_chime", "loud"}} {
		if err := ValidateSetting(bad[0], bad[1]); ErrorCode(err) != EInvalidInput {
			t.Errorf("%s=%s accepted", bad[0], bad[1])
		}
	}
}
