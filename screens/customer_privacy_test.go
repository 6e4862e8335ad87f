package screens

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
	"jiaohao/screens/offscreen"
)

// allTexts is every text under o, shown or hidden: what the tree holds,
// not only what is on screen now.
func allTexts(o fyne.CanvasObject) []string {
	var out []string
	switch v := o.(type) {
	case *canvas.Text:
		out = append(out, v.Text)
	case *widget.Label:
		out = append(out, v.Text)
	case *widget.Button:
		out = append(out, v.Text)
	}
	for _, c := range children(o) {
		out = append(out, allTexts(c)...)
	}
	return out
}

// A registered 贵宾 is called: the caller of the window shows the level
// and the name, the hall shows the number and nowhere in its whole tree
// the name, the masked name or the customer number.
func TestCallerSeesCustomerHallNever(t *testing.T) {
	st := newStore(t)
	c := registerVIP(t, st)
	ctx := context.Background()
	wc, wh := newTestWindow(t, 520, 640), newTestWindow(t, 1280, 720)
	caller := build(t, func(ctx context.Context) *Caller { return NewCaller(ctx, wc, st, 1, nil) })
	hall := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, wh, st, &recorder{}) })
	waitLoaded(t, caller.Loaded())
	waitLoaded(t, hall.Loaded())

	tk, err := st.TakeTicketFor(ctx, "A", c.ID, model.SourceKiosk)
	if err != nil {
		t.Fatal(err)
	}
	take(t, st, "A", 1)
	WithUI(func() { caller.Trigger(ActionCall) })
	waitFor(t, "the customer at the caller", func() bool {
		return caller.number.Text == tk.Number && strings.Contains(caller.Customer(), "王小明") && strings.Contains(caller.Customer(), "贵宾")
	})
	waitFor(t, "the call on the hall", func() bool {
		return strings.Contains(strings.Join(allTexts(hall.Content()), "|"), tk.Number)
	})
	WithUI(func() {
		hallText := strings.Join(allTexts(hall.Content()), "|")
		for _, secret := range []string{"王小明", "王**", "小明", "C001", vipPhone} {
			if strings.Contains(hallText, secret) {
				t.Errorf("the hall's tree holds %q: %s", secret, hallText)
			}
		}
	})

	// The next ticket, taken with no customer: the line goes.
	WithUI(func() { caller.Trigger(ActionStart) })
	waitFor(t, "serving", func() bool { return caller.cur != nil && caller.cur.Status == model.Serving && !caller.busy })
	if !strings.Contains(caller.Customer(), "王小明") {
		t.Fatalf("serving: the customer line says %q", caller.Customer())
	}
	WithUI(func() { caller.Trigger(ActionFinish) })
	waitFor(t, "finished", func() bool { return caller.cur == nil && !caller.busy })
	WithUI(func() { caller.Trigger(ActionCall) })
	waitFor(t, "the plain ticket", func() bool { return caller.cur != nil && caller.cur.CustomerID == 0 && caller.Customer() == "" })
}

// lateCard answers the window's customer as the store does when the window
// has moved on to another customer's ticket since it was asked.
type lateCard struct{ model.Store }

func (l lateCard) WindowCustomer(ctx context.Context, window int) (model.CustomerCard, error) {
	c, err := l.Store.(model.WindowCustomers).WindowCustomer(ctx, window)
	c.Ticket, c.Name = c.Ticket+1, "别人"
	return c, err
}

// A card answered for another ticket than the one the caller shows is not
// put beside it: the clerk would greet the wrong person.
func TestCallerIgnoresAnotherTicketsCustomer(t *testing.T) {
	st := newStore(t)
	c := registerVIP(t, st)
	tk, err := st.TakeTicketFor(context.Background(), "A", c.ID, model.SourceKiosk)
	if err != nil {
		t.Fatal(err)
	}
	wc := newTestWindow(t, 520, 640)
	caller := build(t, func(ctx context.Context) *Caller { return NewCaller(ctx, wc, lateCard{st}, 1, nil) })
	waitLoaded(t, caller.Loaded())
	WithUI(func() { caller.Trigger(ActionCall) })
	waitFor(t, "the call", func() bool {
		return caller.number.Text == tk.Number && strings.Contains(caller.Customer(), "贵宾") && !caller.busy
	})
	if err := offscreen.Quiet(context.Background(), 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	WithUI(func() {
		if strings.Contains(caller.Customer(), "别人") {
			t.Fatalf("the caller shows %q", caller.Customer())
		}
	})
}
