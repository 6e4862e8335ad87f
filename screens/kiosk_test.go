package screens

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"jiaohao/model"
)

func TestKioskShowsNumberAndPrintsOnce(t *testing.T) {
	st := newStore(t)
	take(t, st, "A", 2) // two ahead
	w := newTestWindow(t, 1280, 720)
	printer := &recorder{}
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, printer) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "tiles", func() bool { return len(k.tileBtn) >= 2 && !k.tileBtn[0].Disabled() })

	WithUI(func() { test.Tap(k.tileBtn[0]) })
	waitFor(t, "the number", func() bool { return k.Shown() == "A003" })
	if got := printer.numbers(); !slices.Equal(got, []string{"A003"}) {
		t.Fatalf("print jobs %v, want exactly [A003]", got)
	}
	var ahead string
	WithUI(func() { ahead = k.ahead.Text })
	if !strings.Contains(ahead, "2") {
		t.Fatalf("ahead line %q does not say 2", ahead)
	}
	snap, err := st.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if snap.Services[0].Waiting != 3 {
		t.Fatalf("%d waiting for A, want 3: one ticket per tap", snap.Services[0].Waiting)
	}
	WithUI(k.hideTicket)
	if k.Shown() != "" {
		t.Fatal("the number stayed after hiding")
	}
}

func TestKioskPausedWhenUnreachable(t *testing.T) {
	f := &flaky{Store: newStore(t)}
	w := newTestWindow(t, 1280, 720)
	printer := &recorder{}
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, f, printer) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "tiles", func() bool { return len(k.tileBtn) > 0 && !k.tileBtn[0].Disabled() })

	f.cut(true)
	waitFor(t, "paused", func() bool { return strings.Contains(k.state.Text, "暂停取号") && k.tileBtn[0].Disabled() })
	WithUI(func() { k.take("A") })
	if f.takes.Load() != 0 || len(printer.numbers()) != 0 {
		t.Fatal("the kiosk took or printed a number while the queue was unreachable")
	}
}

func TestKioskOutsideBusinessHours(t *testing.T) {
	st := newStore(t)
	if err := st.SetSetting(context.Background(), "business_hours", "08:00-09:00"); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "closed", func() bool {
		return strings.Contains(k.state.Text, "08:00-09:00") && len(k.tileBtn) > 0 && k.tileBtn[0].Disabled()
	})
}

// The VIP entry takes the next number at the top priority, once.
func TestKioskVIPEntry(t *testing.T) {
	st := newStore(t)
	take(t, st, "A", 1)
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "VIP entry", func() bool { return k.vipBtn.Visible() && len(k.tileBtn) > 0 && !k.tileBtn[0].Disabled() })
	WithUI(func() {
		test.Tap(k.vipBtn)
		test.Tap(k.tileBtn[0])
	})
	waitFor(t, "the VIP number", func() bool { return k.Shown() == "A002" && k.vipTag.Text == "贵宾优先" })
	tk, err := st.Ticket(context.Background(), 2)
	if err != nil || tk.Priority != model.MinPriority {
		t.Fatalf("VIP ticket %+v (%v), want priority %d", tk, err, model.MinPriority)
	}
	pos, err := st.Position(context.Background(), tk.ID)
	if err != nil || pos.Ahead != 0 {
		t.Fatalf("VIP ticket has %d ahead (%v), want 0", pos.Ahead, err)
	}
	if k.vip {
		t.Fatal("the VIP entry stayed on for the next customer")
	}
}

// A tap that takes no number says why, and prints nothing.
func TestKioskSaysWhyATapFailed(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1280, 720)
	printer := &recorder{}
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, printer) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "tiles", func() bool { return len(k.tileBtn) > 0 && !k.tileBtn[0].Disabled() })
	WithUI(func() { k.take("Q") }) // a service that does not exist
	waitFor(t, "the reason", func() bool { return !k.busy && k.state.Text != "" })
	if k.Shown() != "" || len(printer.numbers()) != 0 {
		t.Fatalf("a failed take showed %q and printed %v", k.Shown(), printer.numbers())
	}
}

// The kiosk says which area to wait in after a number, only when the
// branch has more than one.
func TestKioskShowsTheAreaToWaitIn(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "tiles", func() bool { return slices.Contains(k.codes, "V") && !k.tileBtn[0].Disabled() })
	WithUI(func() { test.Tap(k.tileBtn[slices.Index(k.codes, "V")]) })
	waitFor(t, "the number", func() bool { return k.Shown() == "V001" })
	var area string
	WithUI(func() { area = k.area.Text; k.hideTicket() })
	if area != "" {
		t.Fatalf("one area, the kiosk says %q", area)
	}

	vip := twoAreas(t, st)
	waitFor(t, "V in the second area", func() bool {
		a, _ := k.snap.AreaOf("V")
		return a.ID == vip.ID && !k.tileBtn[0].Disabled()
	})
	WithUI(func() { test.Tap(k.tileBtn[slices.Index(k.codes, "V")]) })
	waitFor(t, "the VIP area", func() bool { return k.Shown() == "V002" && k.area.Text == "请到 二楼贵宾区（二楼） 等候" })
	WithUI(func() { k.hideTicket(); test.Tap(k.tileBtn[slices.Index(k.codes, "A")]) })
	waitFor(t, "the hall", func() bool { return k.Shown() == "A001" && k.area.Text == "请到 大厅 等候" })
}
