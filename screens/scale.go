package screens

import (
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
	if f != s.last {
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
}
