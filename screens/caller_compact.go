package screens

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// The compact caller (虚拟呼叫器): a clerk's screen belongs to the bank's
// own core system, so the caller can shrink to a strip that shows the
// window, its current number and status, and the five actions of the day.
// The program keeps the strip above other programs (SetOnCompact) and
// remembers the choice per PC. Its buttons run the full caller's own
// handlers, enabled by the same rules.

// CallerAction is one of the five actions a clerk repeats all day.
type CallerAction string

const (
	ActionCall   CallerAction = "call"
	ActionRecall CallerAction = "recall"
	ActionPass   CallerAction = "pass"
	ActionStart  CallerAction = "start"
	ActionFinish CallerAction = "finish"
)

// CallerActions are the five in button order (F1..F5 in the caller).
var CallerActions = []CallerAction{ActionCall, ActionRecall, ActionPass, ActionStart, ActionFinish}

// compactLabels are the strip's short button labels.
var compactLabels = map[CallerAction]string{
	ActionCall: "caller.compact_call", ActionRecall: "caller.compact_recall", ActionPass: "caller.compact_pass",
	ActionStart: "caller.compact_start", ActionFinish: "caller.compact_finish",
}

// CompactSize is the strip's size.
var CompactSize = fyne.NewSize(480, 64)

type callerCompact struct {
	on       bool
	full     fyne.Size // the full caller's size, to go back to
	onChange func(on bool)

	enter         *widget.Button // on the full caller
	title, status *canvas.Text
	number        *canvas.Text
	buttons       []*widget.Button // CallerActions order
	back          *widget.Button   // to the full caller
	strip         fyne.CanvasObject
}

// mainAction is the full caller's button and handler of a.
func (c *Caller) mainAction(a CallerAction) (*widget.Button, func()) {
	switch a {
	case ActionCall:
		return c.call, c.doCall
	case ActionRecall:
		return c.recall, c.doRecall
	case ActionPass:
		return c.pass, c.doPass
	case ActionStart:
		return c.startB, c.doStart
	case ActionFinish:
		return c.finish, c.doFinish
	}
	return nil, nil
}

// buildCompact makes the strip; the full caller's buttons exist already.
func (c *Caller) buildCompact() {
	k := &callerCompact{}
	c.compact = k
	k.enter = widget.NewButtonWithIcon(tr("caller.compact"), theme.ViewRestoreIcon(), func() { c.SetCompact(true) })
	k.title = canvas.NewText("", theme.Color(theme.ColorNameForeground))
	k.title.TextSize = 12
	k.status = canvas.NewText("", theme.Color(theme.ColorNameForeground))
	k.status.TextSize = 12
	k.number = bigText("—", 30, colBrand)
	var grid []fyne.CanvasObject
	for _, a := range CallerActions {
		_, do := c.mainAction(a)
		b := widget.NewButton(tr(compactLabels[a]), do)
		k.buttons, grid = append(k.buttons, b), append(grid, b)
	}
	k.buttons[0].Importance = widget.HighImportance
	k.back = widget.NewButtonWithIcon("", theme.ViewFullScreenIcon(), func() { c.SetCompact(false) })
	left := container.NewHBox(container.NewVBox(k.title, k.status), k.number)
	k.strip = container.NewBorder(nil, nil, left, k.back, container.NewGridWithColumns(len(grid), grid...))
}

// SetOnCompact tells the program each time the caller enters (true) or
// leaves the compact mode, after the window has changed: it keeps the
// strip above other programs and remembers the choice.
func (c *Caller) SetOnCompact(f func(on bool)) { c.compact.onChange = f }

// Compact reports whether the caller shows the strip.
func (c *Caller) Compact() bool { return c.compact.on }

// SetCompact shows the strip (on) or the full caller. It runs on the UI
// goroutine.
func (c *Caller) SetCompact(on bool) {
	k := c.compact
	if on == k.on {
		return
	}
	k.on = on
	if on {
		k.full = c.w.Canvas().Size()
		c.w.SetContent(k.strip)
		// Fixed: the window system answers resizes late, and a window that
		// may be any size grows back to one it was asked for before (the
		// full caller's, or the strip's with a menu bar) when the strip's
		// first frame is drawn. A strip has one size anyway.
		c.w.SetFixedSize(true)
		c.w.Resize(CompactSize)
	} else {
		c.w.SetFixedSize(false)
		c.w.SetContent(c.content)
		if k.full.Width > 0 {
			c.w.Resize(k.full)
		}
	}
	c.refresh()
	if k.onChange != nil {
		k.onChange(on)
	}
}

// refreshCompact draws the strip from what the full caller shows; a button
// is on exactly when its full caller's twin is.
func (c *Caller) refreshCompact(name string, ws model.WindowState) {
	k := c.compact
	k.title.Text = name
	k.title.Refresh()
	setText(k.number, c.number.Text)
	status, col := windowStatusText(ws.Status), theme.Color(theme.ColorNameForeground)
	switch {
	case c.msg.Text != "":
		status, col = k.fitStatus(c.msg.Text), theme.Color(theme.ColorNameError) // the strip has one short line
	case c.cur != nil:
		status = statusText(c.cur.Status)
	}
	k.status.Text, k.status.Color = status, col
	k.status.Refresh()
	for i, a := range CallerActions {
		full, _ := c.mainAction(a)
		enable(k.buttons[i], !full.Disabled())
	}
}

// fitStatus cuts s, with an ellipsis, to the width the strip has left
// for its status line beside its title, number and buttons as they are
// now: a sentence in Chinese takes twice the width of as many letters.
func (k *callerCompact) fitStatus(s string) string {
	k.status.Text = ""
	// A few words at least (eight Chinese characters), even where the strip
	// is full already (in English, with a number called): it grows then.
	room := max(CompactSize.Width-(k.strip.MinSize().Width-k.title.MinSize().Width), 8*k.status.TextSize)
	fits := func(t string) bool { return fyne.MeasureText(t, k.status.TextSize, k.status.TextStyle).Width <= room }
	if fits(s) {
		return s
	}
	r := []rune(s)
	for n := len(r) - 1; n > 0; n-- {
		if t := string(r[:n]) + "…"; fits(t) {
			return t
		}
	}
	return "…"
}
