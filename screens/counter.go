package screens

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"jiaohao/model"
)

// Counter is the window screen (窗口屏): the small display above or
// beside one window, read by the customer walking up to it. It shows the
// window's name, its current number large, what the window is doing
// (叫号中, 办理中, 暂停, 午休, 空闲) and the clerk's name, and flashes when
// its window calls. It only watches the queue, like the hall.
type Counter struct {
	base
	window int
	down   bool
	w      fyne.Window
	pal    palette      // the branch's colours, or the hall's own
	last   model.Change // the state on screen, to draw again in new colours

	bg                         *canvas.Rectangle
	name, number, state, clerk *canvas.Text
	linkT, clockT              *canvas.Text
	foot                       *fyne.Container
	content                    fyne.CanvasObject
	flash                      *fyne.Animation
	lastCall                   int64 // version of the last call shown flashing
}

// NewCounter builds window's screen in w and follows the store until ctx
// ends.
func NewCounter(ctx context.Context, w fyne.Window, st model.Store, window int) *Counter {
	c := &Counter{window: window, w: w, pal: hallPalette(model.Look{})}
	c.build()
	w.SetPadded(false)
	w.SetContent(c.content)
	c.start(ctx, st, c)
	c.wg.Go(func() { c.tick(ctx) })
	return c
}

// Content is the screen's root object.
func (c *Counter) Content() fyne.CanvasObject { return c.content }

func (c *Counter) build() {
	var nb, ub, sb, kb, lb, tb *fyne.Container
	c.name, nb = fitText(fyne.TextAlignCenter, 0.8, c.pal.text)
	c.number, ub = fitText(fyne.TextAlignCenter, 0.85, c.pal.num)
	c.number.TextStyle.Bold = true
	c.state, sb = fitText(fyne.TextAlignCenter, 0.8, c.pal.text)
	// The clerk signed in at this window (staff number and name), empty
	// while nobody is.
	c.clerk, kb = fitText(fyne.TextAlignCenter, 0.7, c.pal.sub)
	c.linkT, lb = fitText(fyne.TextAlignLeading, 0.7, c.pal.warn)
	c.clockT, tb = fitText(fyne.TextAlignTrailing, 0.7, c.pal.sub)
	c.foot = withLayout(shares{parts: []float32{70, 30}}, lb, tb)
	c.bg = canvas.NewRectangle(c.pal.bg)
	body := withLayout(shares{down: true, parts: []float32{17, 45, 17, 12, 9}}, nb, ub, sb, kb, c.foot)
	c.content = withLayout(&scaler{}, container.NewStack(c.bg, withLayout(inset{0.03}, body)))
	setText(c.name, tr("counter.window", kv("N", c.window)))
	c.showClock()
}

// show takes a new live state on the UI goroutine.
func (c *Counter) show(u model.Change) {
	c.last = model.Change{Snapshot: u.Snapshot}
	if u.Reloaded {
		c.loadLook(c.applyLook) // a configuration change always reloads
		c.showClock()           // the branch's zone may have come with it
	}
	ws, ok := findWindow(u.Snapshot, c.window)
	if !ok {
		setText(c.name, tr("counter.no_window", kv("N", c.window)))
		setText(c.number, "")
		setText(c.state, "")
		setText(c.clerk, "")
		c.content.Refresh()
		return
	}
	setText(c.name, windowName(ws.Window))
	num := ""
	if t, ok := heldToday(u.Snapshot, ws); ok {
		num = numberText(t)
	}
	setText(c.number, num)
	setText(c.state, tr(deskState(u.Snapshot, ws)))
	setText(c.clerk, clerkText(ws.Clerk))
	c.content.Refresh()
	for _, ev := range u.Events {
		if model.IsCall(ev) && ev.Ticket.Window == c.window && ev.Version > c.lastCall {
			c.lastCall = ev.Version
			c.startFlash()
		}
	}
}

// startFlash blinks the screen's background like the hall's row, ending
// on the plain background: a window screen is one call at a time.
func (c *Counter) startFlash() {
	if c.flash != nil {
		c.flash.Stop()
	}
	pal := c.pal
	c.flash = fyne.NewAnimation(3*time.Second, func(p float32) {
		c.bg.FillColor = pal.bg
		if p < 1 && flashLit(p) {
			c.bg.FillColor = pal.hot
		}
		c.bg.Refresh()
	})
	c.flash.Curve = fyne.AnimationLinear
	c.flash.Start()
}

// applyLook takes the branch's colours: the screen is built again in
// them, showing the state it shows.
func (c *Counter) applyLook(st model.Settings, _ []byte) {
	if pal := hallPalette(st.Look); pal != c.pal {
		c.pal = pal
		if c.flash != nil {
			c.flash.Stop()
		}
		c.build()
		c.w.SetContent(c.content)
		c.show(c.last)
		c.link(!c.down)
	}
}

func (c *Counter) link(up bool) {
	c.down = !up
	setText(c.linkT, "")
	if c.down {
		setText(c.linkT, tr("common.reconnecting"))
	}
	c.foot.Refresh()
}

func (c *Counter) showClock() {
	setText(c.clockT, c.clock.now().Format("15:04"))
	c.foot.Refresh()
}

// tick keeps the clock on server time.
func (c *Counter) tick(ctx context.Context) { every(ctx, time.Second, c.showClock, nil) }
