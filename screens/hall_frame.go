package screens

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// hallFrame lays out the hall: the header on top at a share of the
// height, the notice line at the bottom when there is one, and the body
// between them.
type hallFrame struct{ h *Hall }

func (f hallFrame) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	f.h.screen = size
	header, body, notice := objs[0], objs[1], objs[2]
	short := min(size.Width, size.Height)
	pad := short * 0.012
	hh := short * 0.085
	header.Move(fyne.NewPos(pad, 0))
	header.Resize(fyne.NewSize(size.Width-2*pad, hh))
	if ts := short * 0.045; f.h.notice.text.TextSize != ts {
		f.h.notice.text.TextSize = ts
		f.h.notice.text.Refresh()
	}
	var nh float32
	if notice.MinSize().Height > 0 && notice.Visible() {
		nh = notice.MinSize().Height + pad
	}
	notice.Move(fyne.NewPos(0, size.Height-nh))
	notice.Resize(fyne.NewSize(size.Width, nh))
	body.Move(fyne.NewPos(pad, hh))
	body.Resize(fyne.NewSize(size.Width-2*pad, max(size.Height-hh-nh-pad, 0)))
}

func (hallFrame) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }

// flashBlinks is how often a new call's row or tile blinks.
const flashBlinks = 3

// flashLit reports whether a flashing background shows the highlight at
// point p (0..1) of the flash: it goes dark flashBlinks times and ends
// lit, where it stays until the next call.
func flashLit(p float32) bool { return p >= 1 || int(p*2*flashBlinks)%2 == 0 }

// startFlash flashes bg for a few seconds, ending highlighted. While it
// runs, bg may stop being the highlight: the call finished or was passed,
// or a window opening or closing moved the tiles so bg is another
// window's. The flash then leaves bg as show coloured it, rather than
// lighting a row or tile that is not the newest call.
func (h *Hall) startFlash(bg *canvas.Rectangle) {
	if h.flash != nil {
		h.flash.Stop()
	}
	pal := h.pal
	h.flash = fyne.NewAnimation(3*time.Second, func(p float32) {
		if bg != h.lit {
			return
		}
		// Off, the row is a plain one: the number stays readable through
		// the blinks (on the number's own colour it would vanish).
		bg.FillColor = pal.hot
		if !flashLit(p) {
			bg.FillColor = pal.row
		}
		bg.Refresh()
	})
	h.flash.Curve = fyne.AnimationLinear
	h.flash.Start()
}
