package screens

import (
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"jiaohao/model"
)

// hallTilesFirst is the tiles built with the hall; the pool grows to the
// windows a branch has open (a large branch has 40), so every window's
// call is on the wall, and never shrinks, so a day never rebuilds it.
const hallTilesFirst = 24

// hallTiles is the window-tiles body (the classic frmScreen wall): one
// tile per window not closed, with its name, current number and status,
// in a grid sized to the number of tiles.
type hallTiles struct {
	box   *fyne.Container
	tiles []*hallTile
	shown int
	none  *canvas.Text // no window open
	pal   palette
}

type hallTile struct {
	win             int
	bg              *canvas.Rectangle
	name, num, stat *canvas.Text
	box             *fyne.Container
}

func newHallTiles(pal palette) *hallTiles {
	g := &hallTiles{pal: pal}
	var nb *fyne.Container
	g.none, nb = fitText(fyne.TextAlignCenter, 0.5, pal.sub)
	g.none.Text = tr("hall.no_windows")
	g.box = withLayout(g, nb)
	for range hallTilesFirst {
		g.grow()
	}
	return g
}

// grow adds a hidden tile to the pool, before the "no window" text that
// stays the box's last object.
func (g *hallTiles) grow() *hallTile {
	t := &hallTile{bg: canvas.NewRectangle(g.pal.row)}
	var nb, ub, sb *fyne.Container
	t.name, nb = fitText(fyne.TextAlignCenter, 0.8, g.pal.text)
	t.num, ub = fitText(fyne.TextAlignCenter, 0.85, g.pal.num)
	t.stat, sb = fitText(fyne.TextAlignCenter, 0.75, g.pal.sub)
	t.num.TextStyle.Bold = true
	t.box = container.NewStack(t.bg, withLayout(inset{0.05}, withLayout(shares{down: true, parts: []float32{26, 50, 24}}, nb, ub, sb)))
	t.box.Hide()
	g.tiles = append(g.tiles, t)
	objs := g.box.Objects
	g.box.Objects = append(objs[:len(objs)-1:len(objs)-1], t.box, objs[len(objs)-1])
	return t
}

// show fills a tile per window not closed; the tile of window hot (the
// newest call) is highlighted, and its background returned for the flash.
func (g *hallTiles) show(s model.Snapshot, hot int) *canvas.Rectangle {
	var lit *canvas.Rectangle
	g.shown = 0
	for _, w := range s.Windows {
		if w.Status == model.WindowClosed {
			continue
		}
		if g.shown == len(g.tiles) {
			g.grow()
		}
		t := g.tiles[g.shown]
		g.shown++
		t.win = w.Number
		setText(t.name, windowName(w.Window))
		setText(t.num, "")
		if c, ok := heldToday(s, w); ok {
			setText(t.num, numberText(c))
		}
		setText(t.stat, tr(deskState(s, w))+hallClerk(s, w.Number))
		t.bg.FillColor, t.stat.Color = g.pal.row, g.pal.sub
		if w.Number == hot && t.num.Text != "" {
			// The dim colour is unreadable on the highlight.
			t.bg.FillColor, t.stat.Color, lit = g.pal.hot, g.pal.text, t.bg
		}
		t.bg.Refresh()
		t.stat.Refresh()
	}
	for i, t := range g.tiles {
		t.box.Hidden = i >= g.shown
	}
	g.none.Hidden = g.shown > 0
	return lit
}

// Layout puts the tiles in the grid that makes them largest.
func (g *hallTiles) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	none := objs[len(objs)-1]
	none.Move(fyne.NewPos(0, 0))
	none.Resize(size)
	if g.shown == 0 {
		return
	}
	cols, rows := tileGrid(g.shown, size)
	gap := min(size.Width, size.Height) * 0.012
	w := (size.Width - gap*float32(cols-1)) / float32(cols)
	h := (size.Height - gap*float32(rows-1)) / float32(rows)
	for i := range g.shown {
		c, r := i%cols, i/cols
		b := g.tiles[i].box
		b.Move(fyne.NewPos(float32(c)*(w+gap), float32(r)*(h+gap)))
		b.Resize(fyne.NewSize(w, h))
	}
}

func (*hallTiles) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }

// tileAspect is a tile's best width to height: wide enough for a number
// and a window's name side by side with their margins.
const tileAspect = 1.4

// tileGrid picks the columns and rows for n tiles in size that give the
// largest tile of about tileAspect.
func tileGrid(n int, size fyne.Size) (cols, rows int) {
	best := float32(-1)
	for c := 1; c <= n; c++ {
		r := int(math.Ceil(float64(n) / float64(c)))
		w, h := size.Width/float32(c), size.Height/float32(r)
		// The tile's usable area at tileAspect.
		if score := min(w, h*tileAspect); score > best {
			best, cols, rows = score, c, r
		}
	}
	return cols, rows
}

// hallClerk is " · number name" of the clerk at window n when the branch
// shows staff on the hall (show_staff), else "".
func hallClerk(s model.Snapshot, n int) string {
	if !s.ShowStaff {
		return ""
	}
	if ws, ok := findWindow(s, n); ok && ws.Clerk != nil {
		return " · " + clerkText(ws.Clerk)
	}
	return ""
}

// clerkText names a signed-in clerk: staff number and name; "" for none.
func clerkText(c *model.Clerk) string {
	if c == nil {
		return ""
	}
	return tr("clerk.who", kv("Number", c.Number, "Name", c.Name))
}

// windowName is a window's name, or its number when it has none.
func windowName(w model.Window) string {
	if w.Name != "" {
		return w.Name
	}
	return tr("hall.tile_window", kv("N", w.Number))
}

// deskState is the translation key of what a window is doing now, as the
// hall's tiles and the window screen say it: at lunch or paused first (its
// ticket waits), then calling or serving its ticket, else free.
func deskState(s model.Snapshot, w model.WindowState) string {
	switch w.Status {
	case model.WindowLunch:
		return "desk.lunch"
	case model.WindowPaused:
		return "desk.paused"
	case model.WindowClosed:
		return "desk.closed"
	}
	if c, ok := heldToday(s, w); ok {
		if c.Status == model.Serving {
			return "desk.serving"
		}
		return "desk.calling"
	}
	return "desk.idle"
}
