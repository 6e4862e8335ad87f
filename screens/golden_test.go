package screens

import (
	"context"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"jiaohao/app/demodata"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/screens/offscreen"
)

// Layout goldens: each role on the demo morning at a fixed size. They
// catch layouts that break (overlaps, lost fields) in review; regenerate
// with the markup test writes to testdata/failed/ when a change is meant.

func demoStore(t *testing.T) *sqlstore.GormStore {
	t.Helper()
	st := newStore(t)
	if err := demodata.Morning(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	return st
}

func assertGolden(t *testing.T, name string, w fyne.Window) {
	t.Helper()
	WithUI(func() {
		offscreen.Settle(w.Canvas())
		test.AssertRendersToMarkup(t, name, w.Canvas())
	})
}

// assertGoldenAt is assertGolden after laying w out at size: the same
// screen turned to the other orientation.
func assertGoldenAt(t *testing.T, name string, w fyne.Window, size fyne.Size) {
	t.Helper()
	WithUI(func() { w.Resize(size) })
	assertGolden(t, name, w)
}

func TestGoldenCaller(t *testing.T) {
	st := demoStore(t)
	w := newTestWindow(t, 560, 640)
	c := build(t, func(ctx context.Context) *Caller { return NewCaller(ctx, w, st, 2, &recorder{}) })
	waitLoaded(t, c.Loaded())
	waitFor(t, "A003 serving with A001 passed", func() bool {
		return c.number.Text == "A003" && passedRow(c, "A001") != nil
	})
	assertGolden(t, "caller.xml", w)
	assertGoldenAt(t, "caller_landscape.xml", w, fyne.NewSize(1280, 720))
}

func TestGoldenHall(t *testing.T) {
	st := demoStore(t)
	w := newTestWindow(t, 1280, 720)
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, st, &recorder{}) })
	waitLoaded(t, h.Loaded())
	waitFor(t, "three calls", func() bool { return h.list.rows[2].box.Visible() && h.clockT.Text != "" })
	assertGolden(t, "hall.xml", w)
}

// The window tiles in portrait, the split media area beside them.
func TestGoldenHallSplitTiles(t *testing.T) {
	st := demoStore(t)
	w := newTestWindow(t, 1080, 1920)
	h := build(t, func(ctx context.Context) *Hall {
		return NewHallWith(ctx, w, st, &recorder{}, HallOptions{Layout: model.HallSplitTiles})
	})
	waitLoaded(t, h.Loaded())
	waitFor(t, "four tiles", func() bool { return h.tiles.shown == 4 && h.media.notice[0].Text != "" })
	assertGolden(t, "hall_split_tiles.xml", w)
}

func TestGoldenCounter(t *testing.T) {
	st := demoStore(t)
	w := newTestWindow(t, 800, 480)
	c := build(t, func(ctx context.Context) *Counter { return NewCounter(ctx, w, st, 3) })
	waitLoaded(t, c.Loaded())
	waitFor(t, "A004 called at window 3", func() bool { return c.number.Text == "A004" && c.state.Text == "叫号中" })
	assertGolden(t, "counter.xml", w)
}

func TestGoldenKiosk(t *testing.T) {
	st := demoStore(t)
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "tiles, VIP and the estimates", func() bool {
		return len(k.tileBtn) == 3 && k.vipBtn.Visible() && k.EstimatesShown() > 0
	})
	assertGolden(t, "kiosk.xml", w)
	assertGoldenAt(t, "kiosk_portrait.xml", w, fyne.NewSize(1080, 1920))
}

// heldLog is a Store whose event log does not answer until the test
// ends: the dashboard's day, drawn from real event times, stays unread,
// so the render repeats whatever the time of day.
type heldLog struct {
	model.Store
	release chan struct{}
}

func (h heldLog) EventsSince(context.Context, int64, int) ([]model.Event, error) {
	<-h.release
	return nil, model.Errorf(model.EUnavailable, "test ended")
}

func TestGoldenManager(t *testing.T) {
	st := heldLog{Store: demoStore(t), release: make(chan struct{})}
	w := newTestWindow(t, 1024, 768)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	t.Cleanup(func() { close(st.release) }) // before build's cleanup waits for the screen
	waitLoaded(t, m.Loaded())
	waitFor(t, "monitor", func() bool { return len(m.mon.win.box.Objects) == 4 })
	assertGolden(t, "manager.xml", w)
	assertGoldenAt(t, "manager_portrait.xml", w, fyne.NewSize(1080, 1920))
}

func TestGoldenSetup(t *testing.T) {
	w := newTestWindow(t, 640, 720)
	NewSetup(w, &keeper{}, nil, nil) // a fresh PC

	assertGolden(t, "setup.xml", w)
}
