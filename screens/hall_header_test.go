package screens

import (
	"context"
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// glyphsX is where a text's glyphs start and end across, by its alignment
// in its own box.
func glyphsX(t *canvas.Text) (from, to float32) {
	w := fyne.MeasureText(t.Text, t.TextSize, t.TextStyle).Width
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(t).X
	switch t.Alignment {
	case fyne.TextAlignCenter:
		at += (t.Size().Width - w) / 2
	case fyne.TextAlignTrailing:
		at += t.Size().Width - w
	}
	return at, at + w
}

// The header's date and clock read as two things from across the hall: a
// gap between them on a landscape and on a portrait display, where the
// date fills its share of the narrow header.
func TestHallHeaderDateApartFromClock(t *testing.T) {
	st := demoStore(t)
	for _, size := range []fyne.Size{{Width: 1280, Height: 720}, {Width: 1080, Height: 1920}} {
		t.Run(fmt.Sprintf("%.0fx%.0f", size.Width, size.Height), func(t *testing.T) {
			w := newTestWindow(t, size.Width, size.Height)
			h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, st, nil) })
			waitLoaded(t, h.Loaded())
			waitFor(t, "the header", func() bool { return h.branch.Text != "" && h.date.Text != "" })
			WithUI(func() {
				_, dateEnd := glyphsX(h.date)
				clockStart, _ := glyphsX(h.clockT)
				if gap := clockStart - dateEnd; gap < size.Width*0.01 {
					t.Errorf("date %q ends %.0f px before clock %q starts, want at least %.0f", h.date.Text, gap, h.clockT.Text, size.Width*0.01)
				}
			})
		})
	}
}
