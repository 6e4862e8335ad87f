package screens

import (
	"context"
	"testing"

	"fyne.io/fyne/v2"

	"jiaohao/model"
)

// A flash that is still running when its tile stops being the newest
// call (the call is passed, so the tile shows no number) leaves the tile
// plain: the flash's last blinks do not light it again.
func TestHallFlashLeavesNoStaleHighlight(t *testing.T) {
	ctx := context.Background()
	st := demoStore(t)
	take(t, st, "A", 1)
	h := build(t, func(ctx context.Context) *Hall {
		return NewHallWith(ctx, newTestWindow(t, 1280, 720), st, nil, HallOptions{Layout: model.HallTiles})
	})
	waitLoaded(t, h.Loaded())
	tk, err := st.CallNext(ctx, 4, "")
	if err != nil {
		t.Fatal(err)
	}
	tile := h.tiles.tiles[3]
	var flash *fyne.Animation
	waitFor(t, "window 4's tile lit", func() bool {
		flash = h.flash
		return tile.win == 4 && tile.num.Text == tk.Number && tile.bg.FillColor == colHallHot && flash != nil
	})
	if _, err := st.Pass(ctx, tk.ID, 4); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "window 4's tile without a number", func() bool { return tile.num.Text == "" })
	WithUI(func() {
		// The frames the flash would still draw, as the animation runner
		// calls them on the UI goroutine.
		for _, p := range []float32{0.5, 0.9, 1} {
			flash.Tick(p)
			if tile.bg.FillColor != colHallRow {
				t.Errorf("at %.1f of the flash the passed window's tile is %v, want the plain %v", p, tile.bg.FillColor, colHallRow)
			}
		}
	})
}
