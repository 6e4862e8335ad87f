package screens

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// Caller is the clerk's window (frmCaller): the ticket at this window, the
// waiting counts it serves, and the buttons of the state machine. A button
// is enabled only when the model allows its action now (model.Desk.Allows,
// the rules the store applies).
type Caller struct {
	base
	w      fyne.Window
	window int
	ann    Announcer

	// state, UI goroutine only
	snap model.Snapshot
	cur  *model.Ticket // what snap says this window holds; set by see only
	busy bool

	title, info, waiting, msg *widget.Label
	number                    *canvas.Text
	linkLbl                   *widget.Label
	call, recall, pass, startB,
	finish, transfer, cancel, pause,
	lunch, switchB *widget.Button
	passedBox *fyne.Container
	take      *callerTake
	clerk     *callerClerk
	who       *callerCustomer // the registered customer of the ticket held
	compact   *callerCompact
	content   fyne.CanvasObject
}

// NewCaller builds the caller for window and shows it in w; it follows the
// store until ctx ends. ann receives each committed call (a window LED or
// a local voice); nil means none.
func NewCaller(ctx context.Context, w fyne.Window, st model.Store, window int, ann Announcer) *Caller {
	if ann == nil {
		ann = LogAnnouncer{}
	}
	c := &Caller{w: w, window: window, ann: ann}
	c.build()
	w.SetContent(c.content)
	w.Canvas().SetOnTypedKey(c.typedKey)
	c.refresh()
	c.start(ctx, st, c)
	return c
}

// Content is the caller's root object.
func (c *Caller) Content() fyne.CanvasObject { return c.content }

func (c *Caller) build() {
	c.title = widget.NewLabelWithStyle(tr("caller.window", kv("N", c.window)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	c.linkLbl = widget.NewLabel("")
	c.number = bigText("—", 72, colBrand)
	c.info = widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{})
	c.waiting = widget.NewLabel("")
	c.waiting.Wrapping = fyne.TextWrapWord
	c.msg = widget.NewLabel("")
	c.msg.Wrapping = fyne.TextWrapWord
	c.msg.Importance = widget.DangerImportance

	c.call = widget.NewButton(tr("caller.call")+" F1", c.doCall)
	c.call.Importance = widget.HighImportance
	c.recall = widget.NewButton(tr("caller.recall")+" F2", c.doRecall)
	c.pass = widget.NewButton(tr("caller.pass")+" F3", c.doPass)
	c.startB = widget.NewButton(tr("caller.start")+" F4", c.doStart)
	c.finish = widget.NewButton(tr("caller.finish")+" F5", c.doFinish)
	c.transfer = widget.NewButton(tr("caller.transfer"), c.doTransfer)
	c.cancel = widget.NewButton(tr("caller.cancel"), c.doCancel)
	c.pause = widget.NewButton(tr("caller.pause"), c.doPause)
	c.lunch = widget.NewButton(tr("caller.lunch"), c.doLunch)
	c.switchB = widget.NewButton(tr("caller.switch"), c.doSwitch)

	c.take = newCallerTake(c)
	c.clerk = newCallerClerk(c)
	c.who = newCallerCustomer(c)
	c.buildCompact()
	buttons := container.NewGridWithColumns(4, c.call, c.recall, c.pass, c.startB,
		c.finish, c.transfer, c.cancel, c.pause, c.lunch, c.switchB, c.take.btn)
	c.passedBox = container.NewVBox()
	passed := widget.NewCard("", tr("caller.passed"), container.NewVScroll(c.passedBox))
	top := container.NewBorder(nil, nil, nil, container.NewHBox(c.clerk.who, c.clerk.btn, c.clerk.day, c.linkLbl, c.compact.enter), c.title)
	body := container.NewVBox(c.number, c.info, c.who.lbl, widget.NewSeparator(), c.waiting, buttons, c.msg)
	c.content = container.NewBorder(top, nil, nil, nil, container.NewVSplit(body, passed))
}

// show takes a new live state; it runs on the UI goroutine.
func (c *Caller) show(u model.Change) {
	c.see(u.Snapshot)
	c.refresh()
}

// see makes s the state the caller shows. The current ticket is always the
// one s puts at this window, so the buttons and the hall never disagree
// about it: a committed reply only reaches it through s (see act).
func (c *Caller) see(s model.Snapshot) {
	c.snap = s
	c.cur = nil
	if ws, ok := findWindow(s, c.window); ok && ws.Current != nil && model.Held(*ws.Current) {
		t := *ws.Current
		c.cur = &t
	}
}

func (c *Caller) link(up bool) {
	if up {
		c.linkLbl.SetText("")
	} else {
		c.linkLbl.SetText(tr("common.reconnecting"))
	}
	c.refresh()
}

// refresh redraws everything from the state and enables the buttons the
// model allows.
func (c *Caller) refresh() {
	ws, known := findWindow(c.snap, c.window)
	name := tr("caller.window", kv("N", c.window))
	if known && ws.Name != "" {
		name = ws.Name
	}
	c.title.SetText(name + " · " + windowStatusText(ws.Status))
	c.title.Importance = widget.MediumImportance
	if ws.Status == model.WindowLunch {
		c.title.Importance = widget.WarningImportance // seen across the desk: nobody is serving
	}
	c.title.Refresh()
	if c.cur == nil {
		setText(c.number, "—")
		c.info.SetText(tr("caller.idle"))
	} else {
		setText(c.number, numberText(*c.cur))
		c.info.SetText(tr("caller.ticket_info", kv("Status", statusText(c.cur.Status), "Count", c.cur.CallCount)))
	}
	c.who.refresh()
	var parts []string
	for _, s := range c.snap.Services {
		if ws.Serves(s.Code) {
			parts = append(parts, tr("caller.waiting_one", kv("Name", s.Name, "Code", s.Code, "N", s.Waiting)))
		}
	}
	c.waiting.SetText(tr("caller.waiting") + " " + strings.Join(parts, "  "))
	d, ok := c.desk(ws), known && !c.busy
	c.enableButtons(d, ok)
	c.refreshPassed(d, ok)
	c.refreshCompact(name, ws)
}

// desk is this window as the model's rules see it, holding c.cur.
func (c *Caller) desk(ws model.WindowState) model.Desk {
	return model.Desk{Window: c.window, Status: ws.Status, Current: c.cur, Today: c.snap.BusinessDate}
}

// enableButtons turns on the actions the model allows on c.cur; ok is
// false while the window is unknown or an action runs.
func (c *Caller) enableButtons(d model.Desk, ok bool) {
	for _, b := range []struct {
		b   *widget.Button
		act model.Action
	}{{c.call, model.ActCall}, {c.recall, model.ActRecall}, {c.pass, model.ActPass}, {c.startB, model.ActStart},
		{c.finish, model.ActFinish}, {c.cancel, model.ActCancel}, {c.transfer, model.ActTransfer}} {
		enable(b.b, ok && d.Allows(b.act, c.cur))
	}
	enable(c.pause, ok)
	c.take.refresh(ok)
	c.clerk.refresh(ok)
	if d.Status == model.WindowOpen {
		c.pause.SetText(tr("caller.pause"))
	} else {
		c.pause.SetText(tr("caller.resume"))
	}
	// Lunch starts from an open or paused window and ends back open.
	enable(c.lunch, ok && d.Status != model.WindowClosed)
	if d.Status == model.WindowLunch {
		c.lunch.SetText(tr("caller.lunch_end"))
	} else {
		c.lunch.SetText(tr("caller.lunch"))
	}
	ws, _ := findWindow(c.snap, c.window)
	enable(c.switchB, ok && len(switchable(ws.Window)) > 0)
}

// refreshPassed lists this window's passed tickets with undo-pass (call
// back here) and requeue (back into the line).
func (c *Caller) refreshPassed(d model.Desk, ok bool) {
	c.passedBox.RemoveAll()
	for _, t := range c.snap.Passed {
		if t.Window != c.window {
			continue
		}
		id := t.ID
		undo := widget.NewButton(tr("caller.undo_pass"), func() { c.doUndoPass(id) })
		requeue := widget.NewButton(tr("caller.requeue"), func() { c.doRequeue(id) })
		enable(undo, ok && d.Allows(model.ActUndoPass, &t))
		enable(requeue, ok && d.Allows(model.ActRequeue, &t))
		c.passedBox.Add(container.NewBorder(nil, nil, nil, container.NewHBox(undo, requeue), widget.NewLabel(numberText(t))))
	}
	if len(c.passedBox.Objects) == 0 {
		c.passedBox.Add(widget.NewLabel(tr("caller.no_passed")))
	}
	if c.content != nil {
		c.content.Refresh()
	}
}

// typedKey maps F1..F5 to the main actions, like the classic caller.
func (c *Caller) typedKey(ev *fyne.KeyEvent) {
	keys := map[fyne.KeyName]CallerAction{
		fyne.KeyF1: ActionCall, fyne.KeyF2: ActionRecall, fyne.KeyF3: ActionPass, fyne.KeyF4: ActionStart, fyne.KeyF5: ActionFinish,
	}
	if a, ok := keys[ev.Name]; ok {
		c.Trigger(a)
	}
}

// Trigger runs a as a tap on its button would, and nothing while the
// button is off: the function keys and the global hotkeys come here. It
// runs on the UI goroutine.
func (c *Caller) Trigger(a CallerAction) {
	if b, _ := c.mainAction(a); b != nil && !b.Disabled() {
		b.OnTapped()
	}
}
