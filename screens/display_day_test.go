package screens

import (
	"context"
	"testing"
	"time"

	"jiaohao/model"
)

// After the business day ends, a ticket a window still holds from the day
// before (served, never finished: it blocks nothing, model.Desk) is no
// call: the window screen says the window is free, the hall's tiles show
// no number on it and the calls list has no row for it.
func TestDisplaysForgetYesterdaysDesk(t *testing.T) {
	ctx := context.Background()
	st := demoStore(t) // window 1 serves A002, 2 serves A003, 3 calls A004
	c := build(t, func(ctx context.Context) *Counter { return NewCounter(ctx, newTestWindow(t, 800, 480), st, 1) })
	tiles := build(t, func(ctx context.Context) *Hall {
		return NewHallWith(ctx, newTestWindow(t, 1280, 720), st, nil, HallOptions{Layout: model.HallTiles})
	})
	list := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, newTestWindow(t, 1280, 720), st, nil) })
	for _, v := range []interface{ Loaded() <-chan struct{} }{c, tiles, list} {
		waitLoaded(t, v.Loaded())
	}
	waitFor(t, "today's desks", func() bool {
		return c.number.Text == "A002" && tiles.tiles.tiles[0].num.Text == "A002" && list.list.rows[2].num.Text == "A002"
	})
	snap, err := st.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	now, err := st.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st.ShiftClock(snap.DayEnds.Sub(now) + time.Minute)
	take(t, st, "B", 1) // the new day's first event
	waitFor(t, "the new day on every display", func() bool {
		return c.number.Text == "" && c.state.Text == "空闲" &&
			tiles.tiles.tiles[0].num.Text == "" && tiles.tiles.tiles[0].stat.Text == "空闲" && tiles.tiles.tiles[0].bg.FillColor == colHallRow &&
			!list.list.rows[0].box.Visible() && list.list.shown == 0
	})
}
