package screens

import (
	"context"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// act runs one store action for the clerk: the buttons are off while it
// runs, an error becomes one sentence, and a committed call is announced
// after the fact; a failed announcement never undoes the call.
func (c *Caller) act(fn func(ctx context.Context) (model.Ticket, error), announce bool) {
	c.busy = true
	c.msg.SetText("")
	c.refresh()
	var got model.Ticket
	var fault string
	c.async(func(ctx context.Context) error {
		t, err := fn(ctx)
		if err != nil {
			return err
		}
		got = t
		if announce {
			c.ann.Announce(t)
			fault = c.ann.Fault()
		}
		return nil
	}, func(err error) {
		c.busy = false
		switch {
		case err != nil:
			c.msg.SetText(errText(err))
		default:
			// Show the committed result at once, as an early step of the
			// followed state; the event that follows says the same.
			c.snap.PutCurrent(got)
			c.see(c.snap)
			if fault != "" {
				c.msg.SetText(tr("caller.announce_fault", kv("Fault", fault)))
			}
		}
		c.refresh()
	})
}

// onCurrent runs an action on the current ticket.
func (c *Caller) onCurrent(announce bool, fn func(ctx context.Context, id int64) (model.Ticket, error)) {
	if c.cur == nil {
		return
	}
	id := c.cur.ID
	c.act(func(ctx context.Context) (model.Ticket, error) { return fn(ctx, id) }, announce)
}

func (c *Caller) doCall() {
	c.act(func(ctx context.Context) (model.Ticket, error) { return c.st.CallNext(ctx, c.window, "") }, true)
}

func (c *Caller) doRecall() {
	c.onCurrent(true, func(ctx context.Context, id int64) (model.Ticket, error) { return c.st.Recall(ctx, id, c.window) })
}

func (c *Caller) doPass() {
	c.onCurrent(false, func(ctx context.Context, id int64) (model.Ticket, error) { return c.st.Pass(ctx, id, c.window) })
}

func (c *Caller) doStart() {
	c.onCurrent(false, func(ctx context.Context, id int64) (model.Ticket, error) {
		return c.st.StartServing(ctx, id, c.window)
	})
}

func (c *Caller) doFinish() {
	c.onCurrent(false, func(ctx context.Context, id int64) (model.Ticket, error) { return c.st.Finish(ctx, id, c.window) })
}

func (c *Caller) doUndoPass(id int64) {
	c.act(func(ctx context.Context) (model.Ticket, error) { return c.st.UndoPass(ctx, id, c.window) }, true)
}

func (c *Caller) doRequeue(id int64) {
	c.act(func(ctx context.Context) (model.Ticket, error) { return c.st.Requeue(ctx, id, c.window) }, false)
}

func (c *Caller) doCancel() {
	if c.cur == nil {
		return
	}
	msg := tr("caller.cancel_confirm", kv("Number", c.cur.Number))
	dialog.ShowConfirm(tr("caller.cancel"), msg, func(ok bool) {
		if ok {
			c.onCurrent(false, func(ctx context.Context, id int64) (model.Ticket, error) { return c.st.Cancel(ctx, id, c.window) })
		}
	}, c.w)
}

// doTransfer asks where to: another window (same status there) or
// another service's queue (waiting, keeping the number).
func (c *Caller) doTransfer() {
	if c.cur == nil {
		return
	}
	targets := map[string]model.TransferTarget{}
	var options []string
	for _, w := range c.snap.Windows {
		if w.Number != c.window {
			o := tr("caller.to_window", kv("N", w.Number, "Name", w.Name))
			targets[o] = model.TransferTarget{Window: w.Number}
			options = append(options, o)
		}
	}
	for _, s := range c.snap.Services {
		if s.Code != c.cur.Service && s.Enabled {
			o := tr("caller.to_service", kv("Code", s.Code, "Name", s.Name))
			targets[o] = model.TransferTarget{Service: s.Code}
			options = append(options, o)
		}
	}
	pick := widget.NewSelect(options, nil)
	items := []*widget.FormItem{widget.NewFormItem(tr("caller.transfer_to"), pick)}
	dialog.ShowForm(tr("caller.transfer")+" "+c.cur.Number, tr("common.ok"), tr("common.cancel"), items, func(ok bool) {
		to, found := targets[pick.Selected]
		if !ok || !found {
			return
		}
		c.onCurrent(false, func(ctx context.Context, id int64) (model.Ticket, error) {
			return c.st.Transfer(ctx, id, c.window, to)
		})
	}, c.w)
}

// doPause toggles the window between open and paused; a paused window
// takes no calls and the sweeper leaves it alone. A window at lunch or
// closed opens.
func (c *Caller) doPause() {
	ws, _ := findWindow(c.snap, c.window)
	to := model.WindowPaused
	if ws.Status != model.WindowOpen {
		to = model.WindowOpen
	}
	c.setStatus(to)
}

// setWindow puts a committed window state into the followed state at
// once; the event that follows says the same.
func (c *Caller) setWindow(w model.Window) {
	c.snap.PutWindow(w)
	c.see(c.snap)
}
