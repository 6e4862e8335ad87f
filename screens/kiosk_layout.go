package screens

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tileGrid lays the kiosk's tiles out in equal cells filling the space:
// two columns on a landscape panel, one on a portrait one (a standing
// kiosk), so a tile is never narrower than half a landscape screen and
// its wait line never runs across the border. Hidden tiles take no cell.
type tileGrid struct{}

func (tileGrid) columns(size fyne.Size) int {
	if size.Height > size.Width {
		return 1
	}
	return 2
}

func (g tileGrid) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	shown := visibleOnly(objs)
	if len(shown) == 0 {
		return
	}
	cols := min(g.columns(size), len(shown))
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
func (tileGrid) MinSize(objs []fyne.CanvasObject) fyne.Size {
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
// the kiosk's buttons stay tappable whatever their label.
type touchSized struct{ w, h float32 }

func (l touchSized) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l touchSized) MinSize(objs []fyne.CanvasObject) fyne.Size {
	f := touchTarget()
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
	v.name = sc.add(bigText(tr("kiosk.vip"), 64, colBrand), 64)
	v.hint = sc.add(bigText(tr("kiosk.vip_hint"), 36, colHallRow), 36)
	v.box = container.NewStack(v.btn, container.NewCenter(container.NewVBox(v.name, v.hint)))
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
	v.btn.Refresh()
	v.name.Refresh()
	v.hint.Refresh()
	return true
}
