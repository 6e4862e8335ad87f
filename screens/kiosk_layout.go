package screens

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// kioskGrid lays the kiosk's tiles out in equal cells filling the space:
// one column on a portrait panel (a standing kiosk), where a tile is the
// full width (two beyond maxPortraitRows tiles); on a landscape one at least two columns, and as many more
// as keep the rows no more than the columns (five tiles take three
// columns, ten take four), so a big branch's tiles stay tall enough for
// their two lines. Hidden tiles take no cell.
type kioskGrid struct{}

// maxPortraitRows is how many tiles one portrait column holds with room
// for both lines: on a 16:9 panel a tenth of the height is 1.4 times the
// two lines' height, since both scale with the panel's width.
const maxPortraitRows = 10

func (kioskGrid) columns(size fyne.Size, n int) int {
	if size.Height > size.Width {
		if n > maxPortraitRows {
			return 2 // rather than cut the lines of tiles too short for them
		}
		return 1
	}
	cols := 2
	for (n+cols-1)/cols > cols {
		cols++
	}
	return min(cols, max(n, 1))
}

func (g kioskGrid) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	shown := visibleOnly(objs)
	if len(shown) == 0 {
		return
	}
	cols := g.columns(size, len(shown))
	rows := (len(shown) + cols - 1) / cols
	pad := theme.Padding()
	w := (size.Width - pad*float32(cols-1)) / float32(cols)
	h := (size.Height - pad*float32(rows-1)) / float32(rows)
	for i, o := range shown {
		r, c := i/cols, i%cols
		o.Move(fyne.NewPos(float32(c)*(w+pad), float32(r)*(h+pad)))
		o.Resize(fyne.NewSize(w, h))
	}
}

// MinSize is one column of the tiles, each at least a fingertip tall.
func (kioskGrid) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var out fyne.Size
	shown := visibleOnly(objs)
	for _, o := range shown {
		m := o.MinSize()
		out.Width = max(out.Width, m.Width)
		out.Height += max(m.Height, touchTarget())
	}
	if len(shown) > 1 {
		out.Height += theme.Padding() * float32(len(shown)-1)
	}
	return out
}

func visibleOnly(objs []fyne.CanvasObject) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, o := range objs {
		if o.Visible() {
			out = append(out, o)
		}
	}
	return out
}

// touchSized keeps its objects at least w×h fingertips (touchTarget), so
// the kiosk's buttons stay tappable whatever their label, and grows that
// with the scaler's texts on a larger panel (never below the fingertip).
type touchSized struct {
	w, h float32
	sc   *scaler
}

func (l touchSized) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l touchSized) MinSize(objs []fyne.CanvasObject) fyne.Size {
	f := touchTarget() * max(l.sc.factor(), 1)
	out := fyne.NewSize(l.w*f, l.h*f)
	for _, o := range objs {
		out = out.Max(o.MinSize())
	}
	return out
}

// vipTile is the VIP entry as a tile among the services: tapped, it turns
// the brand colour and the next service tapped takes a priority number.
type vipTile struct {
	btn        *widget.Button
	name, hint *canvas.Text
	box        *fyne.Container
}

func newVIPTile(sc *scaler, tap func()) *vipTile {
	v := &vipTile{btn: widget.NewButton("", tap)}
	v.name, v.hint = bigText(tr("kiosk.vip"), 64, colBrand), bigText(tr("kiosk.vip_hint"), 36, colHallRow)
	v.box = container.NewStack(v.btn, container.NewPadded(middle(sc.fit(v.name, 64), sc.fit(v.hint, 36))))
	return v
}

// set shows the tile, or hides it, and whether it is chosen; it reports
// whether anything changed.
func (v *vipTile) set(shown, on bool) bool {
	imp, name, hint, hintCol := widget.MediumImportance, color.Color(colBrand), tr("kiosk.vip_hint"), color.Color(colHallRow)
	if on {
		imp, name, hint, hintCol = widget.HighImportance, colPaper, tr("kiosk.vip_on"), colPaper
	}
	if shown == v.box.Visible() && imp == v.btn.Importance && hint == v.hint.Text {
		return false
	}
	v.btn.Importance = imp
	v.btn.Hidden, v.box.Hidden = !shown, !shown
	v.name.Color, v.hint.Color, v.hint.Text = name, hintCol, hint
	v.box.Refresh() // refits the hint too
	return true
}

// middle stacks fitted lines (scaler.fit) in the middle of the height
// they are given, each line as wide as the space, so each shrinks to it.
func middle(objs ...fyne.CanvasObject) *fyne.Container {
	return container.NewVBox(append(append([]fyne.CanvasObject{layout.NewSpacer()}, objs...), layout.NewSpacer())...)
}

// besides lays its objects out clear of a corner mark (a tile's service
// letter) on both sides, so centred lines stay centred and never run
// under the mark.
type besides struct{ mark fyne.CanvasObject }

func (b besides) inset() float32 { return b.mark.MinSize().Width + 2*theme.Padding() }

func (b besides) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	in, pad := b.inset(), theme.Padding()
	for _, o := range objs {
		o.Move(fyne.NewPos(in, pad))
		o.Resize(fyne.NewSize(max(size.Width-2*in, 0), max(size.Height-2*pad, 0)))
	}
}

func (b besides) MinSize(objs []fyne.CanvasObject) fyne.Size {
	out := fyne.NewSize(0, 0)
	for _, o := range objs {
		out = out.Max(o.MinSize())
	}
	return out.Add(fyne.NewSize(2*b.inset(), 2*theme.Padding()))
}

// headerRow lays out the kiosk's top line: the branch name (a fitted
// line) at the left, the clock at the right and the title (a fitted line)
// between them, centred on the screen when there is room. The title is
// what a customer must read, so a long branch name (up to 100
// characters) gives way first: it shrinks to what the title leaves, but
// keeps at least a quarter of the width.
type headerRow struct {
	sc            *scaler
	branch, title *canvas.Text
	logo          *logoView // drawn before the branch name, as tall as the row
	size, tsize   float32   // the branch name's and the title's size at design height
}

func (h headerRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	branch, title, clock, logo := objs[0], objs[1], objs[2], objs[3]
	pad, f := 4*theme.Padding(), h.sc.factor() // a gap that parts the three
	var lw float32                             // the logo's width and its gap, part of the name's
	if logo.Visible() {
		lw = min(size.Height*h.logo.aspect, size.Width/6)
		logo.Move(fyne.NewPos(0, 0))
		logo.Resize(fyne.NewSize(lw, size.Height))
		lw += pad / 2
	}
	cw := clock.MinSize().Width
	bw := lw + fyne.MeasureText(h.branch.Text, h.size*f, h.branch.TextStyle).Width
	tw := fyne.MeasureText(h.title.Text, h.tsize*f, h.title.TextStyle).Width
	x0, x1 := max(bw, cw)+pad, size.Width-max(bw, cw)-pad // centred on the screen
	if x1-x0 < tw {
		bw = min(bw, max(size.Width-tw-cw-2*pad, size.Width/4))
		x0, x1 = bw+pad, size.Width-cw-pad
	}
	branch.Move(fyne.NewPos(lw, 0))
	branch.Resize(fyne.NewSize(max(bw-lw, 0), size.Height))
	title.Move(fyne.NewPos(x0, 0))
	title.Resize(fyne.NewSize(max(x1-x0, 0), size.Height))
	clock.Move(fyne.NewPos(size.Width-cw, 0))
	clock.Resize(fyne.NewSize(cw, size.Height))
}

func (h headerRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var height float32
	for _, o := range objs {
		height = max(height, o.MinSize().Height)
	}
	return fyne.NewSize(2*objs[2].MinSize().Width, height)
}
