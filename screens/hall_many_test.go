package screens

import (
	"context"
	"fmt"
	"testing"

	"fyne.io/fyne/v2"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/screens/offscreen"
)

// bigBranch is a large branch: windows 1–40 open and 12 services (A, B, V
// and nine more), a number waiting in each, and a call at window 40.
func bigBranch(t *testing.T) (*sqlstore.GormStore, model.Ticket) {
	t.Helper()
	ctx := context.Background()
	st := newStore(t)
	for i, code := range []string{"C", "D", "E", "F", "G", "H", "J", "K", "L"} {
		if _, err := st.SaveService(ctx, model.Service{Code: code, Name: fmt.Sprint("个人外汇业务", i), Priority: 5, StartNo: 1, Enabled: true, SortOrder: 10 + i}); err != nil {
			t.Fatal(err)
		}
	}
	for n := 5; n <= 40; n++ {
		if _, err := st.SaveWindow(ctx, model.Window{Number: n, Name: fmt.Sprint(n, "号窗口"), Status: model.WindowOpen, Services: []string{"A"}}); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := st.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range snap.Services {
		take(t, st, s.Code, 1)
	}
	take(t, st, "A", 1)
	tk, err := st.CallNext(ctx, 40, "A")
	if err != nil {
		t.Fatal(err)
	}
	return st, tk
}

// Every open window of a large branch has its tile, so the call at
// window 40 is on the wall and highlighted; the forty tiles fit the
// displays without a text past its box.
func TestHallTilesShowFortyWindows(t *testing.T) {
	st, tk := bigBranch(t)
	for _, l := range []model.HallLayout{model.HallTiles, model.HallSplitTiles} {
		for _, size := range []fyne.Size{{Width: 1280, Height: 720}, {Width: 1080, Height: 1920}} {
			t.Run(fmt.Sprintf("%s/%.0fx%.0f", l, size.Width, size.Height), func(t *testing.T) {
				w := newTestWindow(t, size.Width, size.Height)
				h := build(t, func(ctx context.Context) *Hall { return NewHallWith(ctx, w, st, nil, HallOptions{Layout: l}) })
				waitLoaded(t, h.Loaded())
				waitFor(t, "forty tiles, window 40's call lit", func() bool {
					for _, tl := range h.tiles.tiles[:h.tiles.shown] {
						if tl.win == 40 {
							return h.tiles.shown == 40 && tl.box.Visible() && tl.num.Text == tk.Number && tl.bg.FillColor == colHallHot
						}
					}
					return false
				})
				WithUI(func() {
					offscreen.Settle(w.Canvas())
					assertFits(t, w.Canvas().Content(), size)
				})
			})
		}
	}
}

// The calls list's band shows the waiting count of each of a large
// branch's 12 services, inside its box on a landscape and a portrait
// display.
func TestHallListShowsTwelveServices(t *testing.T) {
	st, _ := bigBranch(t)
	for _, size := range []fyne.Size{{Width: 1280, Height: 720}, {Width: 1080, Height: 1920}} {
		t.Run(fmt.Sprintf("%.0fx%.0f", size.Width, size.Height), func(t *testing.T) {
			w := newTestWindow(t, size.Width, size.Height)
			h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, st, nil) })
			waitLoaded(t, h.Loaded())
			waitFor(t, "a waiting line per service", func() bool {
				n := 0
				for _, s := range h.list.svc {
					if s.Visible() && s.Text != "" {
						n++
					}
				}
				return n == 12
			})
			WithUI(func() {
				offscreen.Settle(w.Canvas())
				assertFits(t, w.Canvas().Content(), size)
			})
		})
	}
}
