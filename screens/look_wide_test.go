package screens

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"testing"
)

// A logo is as tall as the branch name; a banner-shaped one, which the
// store accepts (up to 2048 pixels a side), must not push the branch name
// off the screen.
func TestWideLogoKeepsTheHallOnScreen(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2000, 50))
	for i := range img.Pix {
		img.Pix[i] = 0xc0
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	st := newStore(t)
	if err := st.SetLogo(context.Background(), b.Bytes()); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, 1280, 720)
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, st, &recorder{}) })
	waitLoaded(t, h.Loaded())
	waitFor(t, "the logo shown", func() bool { return h.logo.box.Visible() })
	WithUI(func() {
		logo, name := h.logo.box, h.branch
		if end := name.Position().X + name.Size().Width; end > h.header.Size().Width || logo.Size().Width > h.header.Size().Width/4 {
			t.Errorf("with a 2000×50 logo the logo is %.0f px wide and the branch name ends at %.0f, in a header %.0f wide",
				logo.Size().Width, end, h.header.Size().Width)
		}
	})
}
