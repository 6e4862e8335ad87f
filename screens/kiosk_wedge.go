package screens

import (
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// The keys of a keyboard-wedge card reader reach the kiosk's canvas, as
// no entry widget is ever focused there. A reader types a whole number in
// one burst and Enter; what it leaves half typed (a card pulled out too
// soon) must not become the start of the next scan.

// hookKeys takes the keys typed on the kiosk.
func (k *Kiosk) hookKeys(w fyne.Window) {
	w.Canvas().SetOnTypedRune(func(r rune) {
		if k.ident.on {
			k.wedgeRune(r)
		}
	})
	w.Canvas().SetOnTypedKey(func(e *fyne.KeyEvent) {
		if !k.ident.on {
			return
		}
		switch e.Name {
		case fyne.KeyReturn, fyne.KeyEnter:
			k.submitKey()
		case fyne.KeyBackspace:
			k.backKey()
		case fyne.KeyEscape:
			k.closeIdent()
		}
	})
}

// wedgeRune takes one key a reader typed: after a pause it starts a new
// number, the spaces and dashes a reader may print between groups of
// digits are skipped, anything else goes to typeKey (which refuses what
// is not a digit).
func (k *Kiosk) wedgeRune(r rune) {
	id := &k.ident
	now := time.Now()
	if now.Sub(id.wedgeAt) > wedgeGap && !id.busy {
		id.keys, id.spoiled = nil, false
	}
	id.wedgeAt = now
	if r == ' ' || r == '-' {
		return
	}
	k.typeKey(r)
}

// tapSink is a filled background that takes the taps on it, so a layer
// drawn over buttons does not let a tap through to them.
type tapSink struct {
	widget.BaseWidget
	rect *canvas.Rectangle
}

func newTapSink(c color.Color) *tapSink {
	s := &tapSink{rect: canvas.NewRectangle(c)}
	s.ExtendBaseWidget(s)
	return s
}

func (s *tapSink) Tapped(*fyne.PointEvent) {}

func (s *tapSink) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(s.rect)
}
