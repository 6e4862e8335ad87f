package screens

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// enabled lists which of the caller's buttons are on, by label key.
func (c *Caller) enabledButtons() []string {
	var out []string
	for _, b := range []struct {
		name string
		b    *widget.Button
	}{{"call", c.call}, {"recall", c.recall}, {"pass", c.pass}, {"start", c.startB}, {"finish", c.finish},
		{"transfer", c.transfer}, {"cancel", c.cancel}, {"pause", c.pause}} {
		if !b.b.Disabled() {
			out = append(out, b.name)
		}
	}
	return out
}

func startCaller(t *testing.T, window int) (*Caller, *recorder, fyne.Window, func() model.Ticket) {
	t.Helper()
	st := newStore(t)
	take(t, st, "A", 2)
	w := newTestWindow(t, 520, 640)
	ann := &recorder{}
	c := build(t, func(ctx context.Context) *Caller { return NewCaller(ctx, w, st, window, ann) })
	waitLoaded(t, c.Loaded())
	first := func() model.Ticket {
		tk, err := st.Ticket(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	return c, ann, w, first
}

func expectButtons(t *testing.T, c *Caller, want ...string) {
	t.Helper()
	var got []string
	WithUI(func() { got = c.enabledButtons() })
	if !slices.Equal(got, want) {
		t.Fatalf("enabled buttons = %v, want %v", got, want)
	}
}

func showing(c *Caller, number string, s model.Status) func() bool {
	return func() bool {
		return c.number.Text == number && !c.busy && (c.cur == nil || c.cur.Status == s)
	}
}

func tap(b *widget.Button) { WithUI(func() { test.Tap(b) }) }

func TestCallerCallStartFinish(t *testing.T) {
	c, ann, _, first := startCaller(t, 1)
	expectButtons(t, c, "call", "pause")

	tap(c.call)
	waitFor(t, "A001 called", showing(c, "A001", model.Called))
	// Call stays on: a window may call again while it holds a called
	// ticket (README, busy window), as the store allows.
	expectButtons(t, c, "call", "recall", "pass", "start", "transfer", "cancel", "pause")
	if got := ann.numbers(); !slices.Equal(got, []string{"A001"}) {
		t.Fatalf("announced %v, want [A001]", got)
	}

	tap(c.startB)
	waitFor(t, "A001 serving", showing(c, "A001", model.Serving))
	expectButtons(t, c, "finish", "transfer", "pause")

	tap(c.finish)
	waitFor(t, "window idle", showing(c, "—", 0))
	expectButtons(t, c, "call", "pause")
	if tk := first(); tk.Status != model.Done {
		t.Fatalf("A001 is %v in the store, want done", tk.Status)
	}
}

func TestCallerPassUndoPass(t *testing.T) {
	c, _, _, first := startCaller(t, 2)
	tap(c.call)
	waitFor(t, "A001 called", showing(c, "A001", model.Called))

	tap(c.pass)
	waitFor(t, "A001 in the passed list", func() bool {
		return c.cur == nil && !c.busy && passedRow(c, "A001") != nil
	})
	expectButtons(t, c, "call", "pause")

	var undo *widget.Button
	WithUI(func() { undo = passedRow(c, "A001") }) // the live updates rebuild the rows
	tap(undo)
	waitFor(t, "A001 called back", showing(c, "A001", model.Called))
	expectButtons(t, c, "call", "recall", "pass", "start", "transfer", "cancel", "pause")
	tk := first()
	if tk.Status != model.Called || tk.Window != 2 || tk.CallCount != 2 {
		t.Fatalf("A001 = %v at window %d called %d times, want called at 2, twice", tk.Status, tk.Window, tk.CallCount)
	}
	var info string
	WithUI(func() { info = c.info.Text })
	if !strings.Contains(info, "2") {
		t.Fatalf("info %q does not show the second call", info)
	}
}

// The busy-window rule, as the store applies it: a window holding a called
// ticket may call the next one and call a passed one back; one serving a
// customer may do neither.
func TestCallerCallsAgainWhileCalled(t *testing.T) {
	c, _, _, first := startCaller(t, 1)
	tap(c.call)
	waitFor(t, "A001 called", showing(c, "A001", model.Called))
	tap(c.pass)
	waitFor(t, "A001 passed", func() bool { return c.cur == nil && !c.busy && passedRow(c, "A001") != nil })
	tap(c.call)
	waitFor(t, "A002 called", showing(c, "A002", model.Called))
	undoOn := func() bool {
		var on bool
		WithUI(func() { on = !passedRow(c, "A001").Disabled() })
		return on
	}
	if !undoOn() {
		t.Fatal("undo-pass is off while the window only holds a called ticket")
	}
	tap(c.startB)
	waitFor(t, "A002 serving", showing(c, "A002", model.Serving))
	expectButtons(t, c, "finish", "transfer", "pause")
	if undoOn() {
		t.Fatal("undo-pass is on while the window serves A002")
	}
	tap(c.finish)
	waitFor(t, "window idle", showing(c, "—", 0))
	var undo *widget.Button
	WithUI(func() { undo = passedRow(c, "A001") }) // the live updates rebuild the rows
	tap(undo)
	waitFor(t, "A001 called back", showing(c, "A001", model.Called))
	tap(c.call)
	waitFor(t, "queue empty", func() bool { return !c.busy && c.msg.Text != "" })
	if tk := first(); tk.Status != model.Called || tk.Window != 1 {
		t.Fatalf("A001 = %v at window %d, want called at 1", tk.Status, tk.Window)
	}
}

// passedRow finds the undo-pass button of a passed ticket.
func passedRow(c *Caller, number string) *widget.Button {
	for _, o := range c.passedBox.Objects {
		row, ok := o.(*fyne.Container)
		if !ok || len(row.Objects) < 2 {
			continue
		}
		if l, ok := row.Objects[0].(*widget.Label); ok && l.Text == number {
			return row.Objects[1].(*fyne.Container).Objects[0].(*widget.Button)
		}
	}
	return nil
}

func TestCallerF1CallsNext(t *testing.T) {
	c, _, w, _ := startCaller(t, 3)
	WithUI(func() { w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyF1}) })
	waitFor(t, "A001 called by F1", showing(c, "A001", model.Called))
	WithUI(func() { w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyF4}) })
	waitFor(t, "A001 serving by F4", showing(c, "A001", model.Serving))
}

func TestCallerEmptyQueueSaysSo(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 520, 640)
	c := build(t, func(ctx context.Context) *Caller { return NewCaller(ctx, w, st, 1, nil) })
	waitLoaded(t, c.Loaded())
	waitFor(t, "window known", func() bool { return !c.call.Disabled() })
	tap(c.call)
	waitFor(t, "a sentence", func() bool { return c.msg.Text != "" })
	var msg string
	WithUI(func() { msg = c.msg.Text })
	if strings.Contains(msg, "\n") || strings.Contains(msg, "goroutine") || !strings.Contains(msg, "暂无") {
		t.Fatalf("message %q is not the one-sentence empty-queue message", msg)
	}
}

func TestCallerPauseAndResume(t *testing.T) {
	c, _, _, _ := startCaller(t, 4)
	tap(c.pause)
	waitFor(t, "window paused", func() bool { return !c.busy && c.pause.Text == "恢复" })
	expectButtons(t, c, "pause")
	tap(c.pause)
	waitFor(t, "window open", func() bool { return !c.busy && c.pause.Text == "暂停" })
	expectButtons(t, c, "call", "pause")
}

// objects lists every object under o, widgets' rendered parts included.
func objects(o fyne.CanvasObject) []fyne.CanvasObject {
	out := []fyne.CanvasObject{o}
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			out = append(out, objects(c)...)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			out = append(out, objects(c)...)
		}
	}
	return out
}

func TestCallerTransferToAnotherWindow(t *testing.T) {
	c, _, w, first := startCaller(t, 1)
	tap(c.call)
	waitFor(t, "A001 called", showing(c, "A001", model.Called))
	tap(c.transfer)
	var pick *widget.Select
	var ok *widget.Button
	WithUI(func() {
		for _, o := range objects(w.Canvas().Overlays().Top()) {
			switch v := o.(type) {
			case *widget.Select:
				pick = v
			case *widget.Button:
				if v.Text == "确定" {
					ok = v
				}
			}
		}
	})
	if pick == nil || ok == nil || !slices.Contains(pick.Options, "转到 3 号窗口（3号窗口）") || !slices.Contains(pick.Options, "转到业务 B 对公业务 排队") {
		t.Fatalf("transfer dialog: select %v, confirm %v", pick, ok)
	}
	WithUI(func() {
		pick.SetSelected("转到 3 号窗口（3号窗口）")
		test.Tap(ok)
	})
	waitFor(t, "A001 gone from window 1", func() bool { return c.cur == nil && !c.busy })
	if tk := first(); tk.Window != 3 || tk.Status != model.Called {
		t.Fatalf("A001 at window %d %v, want called at window 3", tk.Window, tk.Status)
	}
}
