package screens

import (
	"context"
	"slices"
	"testing"

	"jiaohao/model"
)

// The clerk takes a number for a customer (窗口代取): the store numbers it
// as the window's, this PC's printer gets it when there is one, and
// without one the number is shown for the clerk to tell the customer.
func TestCallerTakesForCustomer(t *testing.T) {
	c, _, _, _ := startCaller(t, 1)
	waitFor(t, "take enabled", func() bool { return !c.take.btn.Disabled() })

	WithUI(func() { c.take.takeFor("B", true) })
	waitFor(t, "B001 shown", func() bool { return c.take.shown == "B001" })
	var note string
	WithUI(func() { note = c.take.note })
	if note != tr("caller.taken_tell") {
		t.Fatalf("without a printer the clerk is told %q", note)
	}
	tk, err := c.st.Ticket(context.Background(), 3) // after the two A tickets of startCaller
	if err != nil || tk.Number != "B001" || tk.Source != model.SourceWindow || tk.Priority != model.MinPriority {
		t.Fatalf("stored %+v %v, want B001 from the window at priority %d", tk, err, model.MinPriority)
	}

	p := &recorder{}
	WithUI(func() { c.SetPrinter(p); c.take.takeFor("A", false) })
	waitFor(t, "A003 shown", func() bool { return c.take.shown == "A003" })
	WithUI(func() { note = c.take.note })
	if got := p.numbers(); !slices.Equal(got, []string{"A003"}) || note != tr("caller.taken_printed") {
		t.Fatalf("printer got %v, clerk told %q", got, note)
	}
	// An unknown service is one sentence, no number.
	WithUI(func() { c.take.takeFor("Z", false) })
	waitFor(t, "refusal shown", func() bool { return c.msg.Text != "" && !c.busy })
}
