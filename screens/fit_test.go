package screens

import (
	"fmt"
	"image/color"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// The fit check: a role rendered at a display's size must show every text
// whole and apart. It walks the laid-out object tree the way the painter
// does (absolute positions, visible objects only) and measures each text
// as drawn, since a canvas.Text can be given a box narrower than its
// letters and the painter then draws past the box.

// fitSizes are the displays a branch hangs: the common landscape panels,
// a 4K television, a portrait kiosk or hall display and a 16:10 monitor.
var fitSizes = []fyne.Size{
	{Width: 1280, Height: 720}, {Width: 1366, Height: 768}, {Width: 1920, Height: 1080},
	{Width: 3840, Height: 2160}, {Width: 1080, Height: 1920}, {Width: 1920, Height: 1200},
}

// fitSlack absorbs the rounding of text measures and float layouts: less
// than a pixel is not a visible overlap.
const fitSlack = 1

type rect struct{ x0, y0, x1, y1 float32 }

func rectOf(p fyne.Position, s fyne.Size) rect { return rect{p.X, p.Y, p.X + s.Width, p.Y + s.Height} }

func (r rect) inside(o rect) bool {
	return r.x0 >= o.x0-fitSlack && r.y0 >= o.y0-fitSlack && r.x1 <= o.x1+fitSlack && r.y1 <= o.y1+fitSlack
}

func (r rect) meets(o rect) bool {
	return min(r.x1, o.x1)-max(r.x0, o.x0) > fitSlack && min(r.y1, o.y1)-max(r.y0, o.y0) > fitSlack
}

func (r rect) cut(o rect) rect {
	return rect{max(r.x0, o.x0), max(r.y0, o.y0), min(r.x1, o.x1), min(r.y1, o.y1)}
}

func (r rect) String() string {
	return fmt.Sprintf("(%.0f,%.0f)-(%.0f,%.0f)", r.x0, r.y0, r.x1, r.y1)
}

// placedText is a visible text with where its letters are drawn (ink),
// the area it must stay within (bound: every box it is laid out in, a
// scroll's content rather than its viewport) and what shows of the screen
// there (view: bound cut by the scroll viewports).
type placedText struct {
	t           *canvas.Text
	ink         rect
	bound, view rect
}

// inkOf is where the painter draws t placed at pos: its measured size,
// aligned in its box as the painter aligns it.
func inkOf(t *canvas.Text, pos fyne.Position) rect {
	m := fyne.MeasureText(t.Text, t.TextSize, t.TextStyle)
	s := t.Size()
	x, y := pos.X, pos.Y
	switch t.Alignment {
	case fyne.TextAlignCenter:
		x += (s.Width - m.Width) / 2
	case fyne.TextAlignTrailing:
		x += s.Width - m.Width
	}
	if s.Height > m.Height {
		y += (s.Height - m.Height) / 2
	}
	return rect{x, y, x + m.Width, y + m.Height}
}

// children are what o draws inside itself: a container's objects, a
// widget's rendered objects.
func children(o fyne.CanvasObject) []fyne.CanvasObject {
	switch v := o.(type) {
	case *fyne.Container:
		return v.Objects
	case fyne.Widget:
		return test.WidgetRenderer(v).Objects()
	}
	return nil
}

// walkVisible calls visit for each visible object under o with its
// absolute position, the bound and the view it lies in.
func walkVisible(o fyne.CanvasObject, origin fyne.Position, bound, view rect, visit func(o fyne.CanvasObject, pos fyne.Position, bound, view rect)) {
	if !o.Visible() {
		return
	}
	pos := origin.Add(o.Position())
	box := rectOf(pos, o.Size())
	visit(o, pos, bound, view)
	moving := scrolls(o)
	if !moving {
		bound = bound.cut(box)
	}
	view = view.cut(box)
	for _, c := range children(o) {
		if moving {
			// the content may be larger than the viewport: that is what
			// a scroll is for, so it bounds its own texts
			bound = rectOf(pos.Add(c.Position()), c.Size())
		}
		walkVisible(c, pos, bound, view, visit)
	}
}

// scrolls reports whether o shows a window onto content that moves
// inside it: a scroll container, the hall's notice marquee.
func scrolls(o fyne.CanvasObject) bool {
	switch v := o.(type) {
	case *container.Scroll:
		return true
	case *fyne.Container:
		_, ok := v.Layout.(*marquee)
		return ok
	}
	return false
}

// visibleTexts lists the texts under root as drawn in a window of size.
func visibleTexts(root fyne.CanvasObject, size fyne.Size) []placedText {
	win := rectOf(fyne.Position{}, size)
	var out []placedText
	walkVisible(root, fyne.Position{}, win, win, func(o fyne.CanvasObject, pos fyne.Position, bound, view rect) {
		switch v := o.(type) {
		case *canvas.Text:
			if strings.TrimSpace(v.Text) != "" {
				out = append(out, placedText{t: v, ink: inkOf(v, pos), bound: bound, view: view})
			}
		case *canvas.Rectangle:
			// an opaque box painted later hides what it covers (the
			// kiosk's number over its tiles)
			if v.FillColor != nil && opaque(v.FillColor) {
				cover := rectOf(pos, v.Size()).cut(view)
				out = slices.DeleteFunc(out, func(p placedText) bool { return p.ink.cut(p.view).inside(cover) })
			}
		}
	})
	return out
}

func opaque(c color.Color) bool {
	_, _, _, a := c.RGBA()
	return a == 0xffff
}

// fitProblems says, one line each, which texts under root (laid out in a
// window of size) are clipped (drawn past their own box, a box they are
// laid out in or the window) and which pairs of texts overlap.
func fitProblems(root fyne.CanvasObject, size fyne.Size) []string {
	texts := visibleTexts(root, size)
	var out []string
	for _, p := range texts {
		switch need, has := p.ink.x1-p.ink.x0, p.t.Size().Width; {
		case need > has+fitSlack:
			out = append(out, fmt.Sprintf("clipped: %q needs %.0f px, has %.0f", p.t.Text, need, has))
		case !p.ink.inside(p.bound):
			out = append(out, fmt.Sprintf("clipped: %q drawn at %v, outside %v", p.t.Text, p.ink, p.bound))
		}
	}
	for i, a := range texts {
		for _, b := range texts[i+1:] {
			if a.ink.cut(a.view).meets(b.ink.cut(b.view)) {
				out = append(out, fmt.Sprintf("overlap: %q at %v and %q at %v", a.t.Text, a.ink, b.t.Text, b.ink))
			}
		}
	}
	return out
}

// assertFits fails t for each clipped or overlapping text of root, which
// fills a window of size. A role joins the check with one call.
func assertFits(t testing.TB, root fyne.CanvasObject, size fyne.Size) {
	t.Helper()
	if len(visibleTexts(root, size)) == 0 {
		t.Errorf("%.0f×%.0f: no text to check: the walk found nothing drawn", size.Width, size.Height)
	}
	for _, p := range fitProblems(root, size) {
		t.Errorf("%.0f×%.0f: %s", size.Width, size.Height, p)
	}
}

// The check itself fails: two texts drawn over each other, and one whose
// letters run out of its box and out of the window.
func TestFitCheckFindsOverlapAndClipping(t *testing.T) {
	test.NewTempApp(t).Settings().SetTheme(Theme{})
	a, b := canvas.NewText("等候 5 人", colBrand), canvas.NewText("约 5 分钟", colBrand)
	a.Move(fyne.NewPos(10, 10))
	a.Resize(a.MinSize())
	b.Move(fyne.NewPos(30, 12))
	b.Resize(b.MinSize())
	long := canvas.NewText("等候 5 人 · 约 5 分钟", colBrand)
	long.Move(fyne.NewPos(150, 100))
	long.Resize(fyne.NewSize(40, long.MinSize().Height))
	alone := canvas.NewText("A003", colBrand)
	alone.Move(fyne.NewPos(10, 150))
	alone.Resize(alone.MinSize())
	root := container.NewWithoutLayout(a, b, long, alone)
	root.Resize(fyne.NewSize(200, 200))

	got := fitProblems(root, fyne.NewSize(200, 200))
	want := []string{`overlap: "等候 5 人"`, `clipped: "等候 5 人 · 约 5 分钟"`}
	for _, w := range want {
		if !containsPrefix(got, w) {
			t.Errorf("the check missed %s; it said %q", w, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("the check said %q, want exactly %d problems (A003 is fine)", got, len(want))
	}

	// Texts apart and whole pass; a hidden one does not count.
	b.Move(fyne.NewPos(10, 60))
	long.Resize(long.MinSize())
	long.Move(fyne.NewPos(0, 100))
	a.Hide()
	if got := fitProblems(root, fyne.NewSize(200, 200)); len(got) != 0 {
		t.Errorf("a fitting layout was reported: %q", got)
	}
	// A label laid out past a box's edge is clipped even when its own box
	// is wide enough: the tile's border cuts it.
	lbl := widget.NewLabel("等候 5 人 · 约 5 分钟")
	box := container.NewWithoutLayout(lbl)
	box.Resize(fyne.NewSize(60, 60))
	lbl.Resize(lbl.MinSize())
	if got := fitProblems(container.NewWithoutLayout(box), fyne.NewSize(200, 200)); !containsPrefix(got, `clipped: "等候 5 人 · 约 5 分钟" drawn`) {
		t.Errorf("a label past its box was not reported: %q", got)
	}
}

// Content scrolled out of a scroll's viewport is not clipped: it is
// there to scroll to; and what is out of view overlaps nothing.
func TestFitCheckScrolls(t *testing.T) {
	test.NewTempApp(t).Settings().SetTheme(Theme{})
	rows := container.NewVBox()
	for range 40 {
		rows.Add(widget.NewLabel("A001 → 2 号窗口"))
	}
	below := canvas.NewText("最近叫号", colBrand)
	sc := container.NewVScroll(rows)
	root := container.NewBorder(nil, below, nil, nil, sc)
	root.Resize(fyne.NewSize(300, 200))
	if got := fitProblems(root, fyne.NewSize(300, 200)); len(got) != 0 {
		t.Errorf("a scrolled list was reported: %q", got)
	}
	if n := len(visibleTexts(root, fyne.NewSize(300, 200))); n != 41 {
		t.Errorf("%d texts found, want the 40 rows and the line below", n)
	}
}

func containsPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}
