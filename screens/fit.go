package screens

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// The hall and the window screen size their texts from the space each one
// gets, not from the display's height alone: a portrait panel is narrow
// for its height, and a text sized by height would run over its neighbour.

// fit is the layout of one canvas text in its box: as large as fill of the
// box's height allows, smaller when the text would run past the box's
// width. The text spans the box's width (its alignment places it) and is
// centred in its height, so it never leaves its box.
type fit struct {
	t    *canvas.Text
	fill float32
}

// fitBox puts t in a box of its own that sizes it (see fit).
func fitBox(t *canvas.Text, fill float32) *fyne.Container {
	return withLayout(&fit{t: t, fill: fill}, t)
}

// fitText is a new text of colour c in a fitting box, placed by align.
func fitText(align fyne.TextAlign, fill float32, c color.Color) (*canvas.Text, *fyne.Container) {
	t := canvas.NewText("", c)
	t.Alignment = align
	return t, fitBox(t, fill)
}

func (f *fit) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	if s := fitSize(f.t.Text, f.t.TextStyle, size, f.fill); s != f.t.TextSize {
		f.t.TextSize = s
		f.t.Refresh()
	}
	h := min(f.t.MinSize().Height, size.Height)
	f.t.Resize(fyne.NewSize(size.Width, h))
	f.t.Move(fyne.NewPos(0, (size.Height-h)/2))
}

// MinSize is nothing: the text shrinks to whatever box it is given.
func (f *fit) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }

// fitProbe is the size texts are measured at; sizes scale linearly.
const fitProbe = 100

// fitSize is the largest text size at which s fits in box, its line
// taking at most fill of the box's height; an empty text is sized as a
// digit would be, so a row keeps its height when it empties.
func fitSize(s string, style fyne.TextStyle, box fyne.Size, fill float32) float32 {
	if s == "" {
		s = "0"
	}
	m := fyne.MeasureText(s, fitProbe, style)
	if m.Width <= 0 || m.Height <= 0 || box.Width <= 0 || box.Height <= 0 {
		return 1
	}
	size := min(fitProbe*box.Height*fill/m.Height, fitProbe*box.Width/m.Width)
	// Glyph advances do not scale exactly: measure again and shrink until
	// the text is inside the box.
	for range 8 {
		w := fyne.MeasureText(s, size, style).Width
		if w <= box.Width || size <= 1 {
			break
		}
		size *= box.Width / w * 0.98
	}
	return max(size, 1)
}

// shares lays its children out along one axis, each taking its share of
// the length (shares are relative; a hidden child takes none), across the
// whole of the other axis.
type shares struct {
	down  bool // top to bottom; else left to right
	parts []float32
}

func (s shares) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	var total float32
	for i, o := range objs {
		if o.Visible() {
			total += s.parts[i]
		}
	}
	var at float32
	for i, o := range objs {
		if !o.Visible() || total == 0 {
			continue
		}
		if s.down {
			l := size.Height * s.parts[i] / total
			o.Move(fyne.NewPos(0, at))
			o.Resize(fyne.NewSize(size.Width, l))
			at += l
		} else {
			l := size.Width * s.parts[i] / total
			o.Move(fyne.NewPos(at, 0))
			o.Resize(fyne.NewSize(l, size.Height))
			at += l
		}
	}
}

func (shares) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }

// inset lays its one child out inside a margin of share of the box's
// shorter side: padding that grows with the display.
type inset struct{ share float32 }

func (in inset) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	p := min(size.Width, size.Height) * in.share
	for _, o := range objs {
		o.Move(fyne.NewPos(p, p))
		o.Resize(fyne.NewSize(max(size.Width-2*p, 0), max(size.Height-2*p, 0)))
	}
}

func (inset) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }

// landscape reports whether a box is wider than tall by enough to put two
// areas side by side.
func landscape(size fyne.Size) bool { return size.Width >= size.Height*1.2 }

// textLines is a column of fitted one-line texts from the top, each line a
// share of the column's height but at most most() tall, so a short list
// is not blown up; a line whose text is hidden takes no room.
type textLines struct {
	box  *fyne.Container
	most func() float32
}

func newTextLines(most func() float32) *textLines {
	l := &textLines{most: most}
	l.box = withLayout(l)
	return l
}

// title adds a heading line in the dim colour.
func (l *textLines) title(s string) {
	t := l.line(colDim)
	t.Text = s
}

// line adds a line in colour c and returns its text.
func (l *textLines) line(c color.Color) *canvas.Text {
	t, b := fitText(fyne.TextAlignLeading, 0.8, c)
	l.box.Add(b)
	return t
}

func (l *textLines) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	n := 0
	for _, o := range objs {
		if lineShown(o) {
			n++
		}
	}
	if n == 0 {
		return
	}
	h := min(size.Height/float32(n), l.most())
	var y float32
	for _, o := range objs {
		if !lineShown(o) {
			o.Hide()
			continue
		}
		o.Show()
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
}

func (*textLines) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }

// lineShown: a line's box shows while its text does.
func lineShown(o fyne.CanvasObject) bool {
	return o.(*fyne.Container).Objects[0].Visible()
}
