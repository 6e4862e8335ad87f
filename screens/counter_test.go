package screens

import (
	"context"
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"jiaohao/app/demodata"
	"jiaohao/model"
	"jiaohao/screens/offscreen"
)

// The window screen follows its own window live: a call shows the number
// calling (and flashes), a recall flashes again, starting shows serving,
// finishing leaves the window free, and a pause or lunch says so. Another
// window's call changes nothing on it.
func TestCounterFollowsItsWindow(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	take(t, st, "A", 3)
	w := newTestWindow(t, 800, 480)
	c := build(t, func(ctx context.Context) *Counter { return NewCounter(ctx, w, st, 1) })
	waitLoaded(t, c.Loaded())
	shows := func(what, number, state string) {
		t.Helper()
		waitFor(t, what, func() bool {
			return c.name.Text == "1号窗口" && c.number.Text == number && c.state.Text == state
		})
	}
	shows("window 1 free", "", "空闲")
	lastCall := func() (v int64) { WithUI(func() { v = c.lastCall }); return v }
	WithUI(func() {
		if c.clerk.Text != "" {
			t.Errorf("clerk %q while nobody is signed in", c.clerk.Text)
		}
	})

	tk, err := st.CallNext(ctx, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	shows("A001 called", "A001", "叫号中")
	first := lastCall()
	if first == 0 {
		t.Fatal("the call did not flash the window screen")
	}
	WithUI(func() {
		if c.bg.FillColor != colHallBg {
			t.Errorf("after the flash the background is %v, want the plain one", c.bg.FillColor)
		}
	})

	applied := c.Applied()
	if _, err := st.CallNext(ctx, 2, ""); err != nil { // another window's call
		t.Fatal(err)
	}
	waitFor(t, "window 2's call seen", func() bool { return c.Applied() > applied })
	shows("window 1 unchanged by window 2's call", "A001", "叫号中")
	if lastCall() != first {
		t.Fatal("another window's call flashed window 1's screen")
	}
	if _, err := st.Recall(ctx, tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the recall flashed", func() bool { return c.lastCall > first })
	shows("A001 still called after the recall", "A001", "叫号中")

	if _, err := st.StartServing(ctx, tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	shows("A001 served", "A001", "办理中")
	if _, err := st.Finish(ctx, tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	shows("window 1 free again", "", "空闲")
	if _, err := st.SetWindowStatus(ctx, 1, model.WindowPaused); err != nil {
		t.Fatal(err)
	}
	shows("window 1 paused", "", "暂停")
	if _, err := st.SetWindowStatus(ctx, 1, model.WindowLunch); err != nil {
		t.Fatal(err)
	}
	shows("window 1 at lunch", "", "午休")
}

// A window screen set up for a window the branch does not have says so.
func TestCounterUnknownWindow(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 800, 480)
	c := build(t, func(ctx context.Context) *Counter { return NewCounter(ctx, w, st, 9) })
	waitLoaded(t, c.Loaded())
	waitFor(t, "window 9 not set up", func() bool { return c.name.Text == "9 号窗口未设置" && c.number.Text == "" })
}

// The window screen fits the displays a window hangs, from a small monitor
// to a TV on its side: no text clipped or drawn over another (the six
// display sizes of every role are in TestFitCounter; this adds a small one).
func TestCounterFitsEveryDisplay(t *testing.T) {
	st := demoStore(t)
	for _, size := range []fyne.Size{{Width: 800, Height: 480}, {Width: 1280, Height: 720}, {Width: 1366, Height: 768}, {Width: 1920, Height: 1080}, {Width: 3840, Height: 2160}, {Width: 1080, Height: 1920}, {Width: 1920, Height: 1200}} {
		t.Run(fmt.Sprintf("%.0fx%.0f", size.Width, size.Height), func(t *testing.T) {
			w := newTestWindow(t, size.Width, size.Height)
			c := build(t, func(ctx context.Context) *Counter { return NewCounter(ctx, w, st, 3) })
			waitLoaded(t, c.Loaded())
			waitFor(t, "A004 called", func() bool { return c.number.Text == "A004" && c.state.Text != "" })
			WithUI(func() {
				offscreen.Settle(w.Canvas())
				assertFits(t, w.Canvas().Content(), size)
			})
		})
	}
}

// The window screen's clock is in the branch's zone from its first
// snapshot, like the hall's, not in the zone the PC happens to be set to.
func TestCounterClockInBranchZone(t *testing.T) {
	// The zone is set before the morning is taken, so its tickets are of
	// the branch's business day in that zone whatever the hour: at 16:00–18:00
	// UTC Shanghai's day is already Urumqi's tomorrow.
	st := newStore(t)
	if err := st.SetBranch(context.Background(), "营业网点", "Asia/Urumqi"); err != nil {
		t.Fatal(err)
	}
	if err := demodata.Morning(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, 800, 480)
	c := build(t, func(ctx context.Context) *Counter { return NewCounter(ctx, w, st, 3) })
	waitLoaded(t, c.Loaded())
	waitFor(t, "A004 called", func() bool { return c.number.Text == "A004" })
	want := testNow.In(mustZone(t, "Asia/Urumqi")).Format("15:04")
	WithUI(func() {
		if c.clockT.Text != want {
			t.Errorf("clock %q once the snapshot is on screen, want %q in the branch's zone", c.clockT.Text, want)
		}
	})
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
