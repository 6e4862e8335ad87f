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

// Through every blink the newest call's number stays readable: the row
// goes plain between blinks, never the number's own colour, in the
// hall's palette and in a branch look.
func TestHallFlashKeepsTheNumberReadable(t *testing.T) {
	ctx := context.Background()
	for _, colors := range []string{"", "background=#f5f0e1&number=#8b0000&highlight=#ffd54f&text=#1a1a1a"} {
		st := demoStore(t)
		if err := st.SetSetting(ctx, "colors", colors); err != nil {
			t.Fatal(err)
		}
		take(t, st, "A", 1)
		h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, newTestWindow(t, 1280, 720), st, nil) })
		waitLoaded(t, h.Loaded())
		look, _ := model.ParseLook(colors)
		waitFor(t, "the branch's palette", func() bool { return h.pal == hallPalette(look) })
		tk, err := st.CallNext(ctx, 4, "")
		if err != nil {
			t.Fatal(err)
		}
		var flash *fyne.Animation
		waitFor(t, "the new call flashing", func() bool {
			flash = h.flash
			return flash != nil && h.list.rows[0].num.Text == tk.Number
		})
		WithUI(func() {
			row := h.list.rows[0]
			dark := 0
			for i := 0; i <= 100; i++ {
				flash.Tick(float32(i) / 100)
				if row.bg.FillColor != h.pal.hot {
					dark++
				}
				if !readableOn(row.num.Color, row.bg.FillColor) {
					t.Fatalf("colors %q, at %d%% of the flash: the number %v on %v is unreadable", colors, i, row.num.Color, row.bg.FillColor)
				}
			}
			if dark == 0 || row.bg.FillColor != h.pal.hot {
				t.Errorf("colors %q: %d dark frames, ends on %v (want blinks, ending lit %v)", colors, dark, row.bg.FillColor, h.pal.hot)
			}
		})
	}
}
