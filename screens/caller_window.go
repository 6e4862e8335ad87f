package screens

import (
	"context"
	"slices"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// The clerk's controls of the window itself: pause, lunch and the services
// it serves now.

// doLunch starts the lunch break (午休) or ends it, back open. Lunch takes
// no calls, like a pause, but the idle sweeper never counts it and the
// report keeps it apart.
func (c *Caller) doLunch() {
	ws, _ := findWindow(c.snap, c.window)
	to := model.WindowLunch
	if ws.Status == model.WindowLunch {
		to = model.WindowOpen
	}
	c.setStatus(to)
}

// setStatus sets the window's status.
func (c *Caller) setStatus(to model.WindowStatus) {
	c.windowAct(func(ctx context.Context) (model.Window, error) { return c.st.SetWindowStatus(ctx, c.window, to) })
}

// windowAct runs one change of the window itself with the buttons off
// meanwhile; the committed window shows at once, an error in one sentence.
func (c *Caller) windowAct(fn func(ctx context.Context) (model.Window, error)) {
	c.busy = true
	c.msg.SetText("")
	c.refresh()
	var got model.Window
	c.async(func(ctx context.Context) error {
		w, err := fn(ctx)
		got = w
		return err
	}, func(err error) {
		c.busy = false
		c.msg.SetText(errText(err))
		if err == nil {
			c.setWindow(got)
		}
		c.refresh()
	})
}

// switchable is what the clerk may choose among: what the manager allowed
// the window, in display order (it always holds what the window serves).
func switchable(w model.Window) []string {
	return model.AllowedUnion(w.Allowed, w.Services)
}

// doSwitch asks which of the allowed services the window serves from now
// on (seed 003 §3.2: personal business in the morning, corporate in the
// afternoon).
func (c *Caller) doSwitch() {
	ws, _ := findWindow(c.snap, c.window)
	pick := widget.NewCheckGroup(switchable(ws.Window), nil)
	pick.Horizontal = true
	pick.SetSelected(slices.Clone(ws.Services))
	items := []*widget.FormItem{widget.NewFormItem("", widget.NewLabel(tr("caller.switch_hint"))), widget.NewFormItem(tr("caller.switch"), pick)}
	dialog.ShowForm(tr("caller.switch"), tr("common.ok"), tr("common.cancel"), items, func(ok bool) {
		if ok {
			c.switchTo(slices.Clone(pick.Selected))
		}
	}, c.w)
}

// switchTo makes the window serve services; the store refuses one the
// manager did not allow, in one sentence on the screen.
func (c *Caller) switchTo(services []string) {
	c.windowAct(func(ctx context.Context) (model.Window, error) { return c.st.SwitchServices(ctx, c.window, services) })
}
