package screens

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// designHeight is the screen height the hall and kiosk sizes are written
// for (a 1080p display); other heights scale every registered text.
const designHeight = 1080

// scaler is a layout that sizes its texts to the window: a hall screen is
// read from 10 metres whatever the display, and the demo still fits in a
// small window. It lays out one child to fill the space.
type scaler struct {
	// short scales by the shorter side instead of the height, for a view
	// whose texts must fit a portrait panel's width too (the kiosk).
	short bool
	texts []*canvas.Text
	base  []float32
	last  float32
	fits  []shrinkText // texts that also shrink to their box's width
}

// shrinkText is a text of the scaler (index i) laid out by a fitLine in box.
type shrinkText struct {
	i   int
	box *fyne.Container
}

// add registers t at size (in points at designHeight) and returns it.
func (s *scaler) add(t *canvas.Text, size float32) *canvas.Text {
	s.texts = append(s.texts, t)
	s.base = append(s.base, size)
	t.TextSize = size * max(s.last, 0.3)
	return t
}

func (s *scaler) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	ref := size.Height
	if s.short {
		ref = min(size.Width, size.Height)
	}
	f := min(max(ref/designHeight, 0.3), 3)
	changed := f != s.last
	if changed {
		s.last = f
		for i, t := range s.texts {
			t.TextSize = s.base[i] * f
			t.Refresh()
		}
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if changed {
		for _, fb := range s.fits {
			fb.box.Refresh() // the new factor reset the size its box had fitted
		}
	}
}

// factor is the scale the texts have now.
func (s *scaler) factor() float32 { return max(s.last, 0.3) }

// fit registers t like add, in a box of the width it is given that
// shrinks t when the scaled size would not fit: a sentence of unknown
// length (why taking numbers is paused) on a narrow portrait panel. After
// changing t's text, refresh the box.
func (s *scaler) fit(t *canvas.Text, size float32) *fyne.Container {
	s.add(t, size)
	box := withLayout(fitLine{sc: s, t: t, size: size}, t)
	s.fits = append(s.fits, shrinkText{i: len(s.texts) - 1, box: box})
	return box
}

// fitLine lays out one text of a scaler at its scaled size or, if that is
// wider than the box, at the size that just fits.
type fitLine struct {
	sc   *scaler
	t    *canvas.Text
	size float32
}

func (l fitLine) Layout(_ []fyne.CanvasObject, box fyne.Size) {
	want := l.size * l.sc.factor()
	// a text's width is not quite proportional to its size (hinting), so
	// shrink until it fits, a few steps at most
	for range 5 {
		w := fyne.MeasureText(l.t.Text, want, l.t.TextStyle).Width
		if w <= box.Width || box.Width <= 0 {
			break
		}
		want *= box.Width / w * 0.99
	}
	if l.t.TextSize != want {
		l.t.TextSize = want
		l.t.Refresh()
	}
	l.t.Move(fyne.NewPos(0, 0))
	l.t.Resize(box)
}

// MinSize is the line's height at the scaled size, whatever the text, so
// the layout around it does not move; it takes any width.
func (l fitLine) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, fyne.MeasureText("国", l.size*l.sc.factor(), l.t.TextStyle).Height)
}

// MinSize is small on purpose: the texts shrink to fit.
func (s *scaler) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(320, 240) }

// ratio lays out two children side by side, the first taking share of the
// width: the hall's calls on the left, counts on the right.
type ratio struct{ share float32 }

func (r ratio) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	w := size.Width * r.share
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(w, size.Height))
	objs[1].Move(fyne.NewPos(w, 0))
	objs[1].Resize(fyne.NewSize(size.Width-w, size.Height))
}

func (r ratio) MinSize(objs []fyne.CanvasObject) fyne.Size {
	a, b := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(a.Width+b.Width, max(a.Height, b.Height))
}

// mark and truncate let a view rebuild part of its texts (the kiosk's
// service tiles) without the scaler holding on to the old ones.
func (s *scaler) mark() int { return len(s.texts) }

func (s *scaler) truncate(n int) {
	clear(s.texts[n:])
	s.texts, s.base = s.texts[:n], s.base[:n]
	s.fits = slices.DeleteFunc(s.fits, func(f shrinkText) bool { return f.i >= n })
}
