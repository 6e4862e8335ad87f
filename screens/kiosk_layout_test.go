package screens

import (
	"testing"

	"fyne.io/fyne/v2"
)

// A landscape kiosk adds columns as a branch adds services, never more
// rows than columns; a portrait one keeps one column up to
// maxPortraitRows tiles.
func TestKioskTileColumns(t *testing.T) {
	land, port := fyne.NewSize(1280, 720), fyne.NewSize(1080, 1920)
	for _, c := range []struct{ n, land int }{{1, 1}, {2, 2}, {4, 2}, {5, 3}, {9, 3}, {10, 4}, {16, 4}, {17, 5}} {
		if got := (kioskGrid{}).columns(land, c.n); got != c.land {
			t.Errorf("%d tiles in landscape: %d columns, want %d", c.n, got, c.land)
		}
		want := 1
		if c.n > maxPortraitRows {
			want = 2
		}
		if got := (kioskGrid{}).columns(port, c.n); got != want {
			t.Errorf("%d tiles in portrait: %d columns, want %d", c.n, got, want)
		}
	}
}
