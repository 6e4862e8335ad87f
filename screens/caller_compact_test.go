package screens

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"jiaohao/model"
)

// compactCaller is a caller of window 1 over two waiting A tickets, with
// the compact mode's changes recorded.
func compactCaller(t *testing.T) (*Caller, *[]bool, func(id int64) model.Ticket) {
	t.Helper()
	st := newStore(t)
	take(t, st, "A", 2)
	w := newTestWindow(t, 520, 640)
	c := build(t, func(ctx context.Context) *Caller { return NewCaller(ctx, w, st, 1, &recorder{}) })
	waitLoaded(t, c.Loaded())
	var changes []bool
	WithUI(func() { c.SetOnCompact(func(on bool) { changes = append(changes, on) }) })
	ticket := func(id int64) model.Ticket {
		tk, err := st.Ticket(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	return c, &changes, ticket
}

// storeSays waits until ticket id has status s in the store itself, and the
// caller is ready for the next action.
func storeSays(t *testing.T, c *Caller, ticket func(int64) model.Ticket, id int64, s model.Status) {
	t.Helper()
	waitFor(t, fmt.Sprintf("ticket %d %s in the store", id, s), func() bool {
		return ticket(id).Status == s && !c.busy && c.cur != nil == (s == model.Called || s == model.Serving)
	})
}

func compactEnabled(c *Caller) []string {
	var out []string
	for i, b := range c.compact.buttons {
		if !b.Disabled() {
			out = append(out, string(CallerActions[i]))
		}
	}
	return out
}

func TestCompactCallerButtons(t *testing.T) {
	c, changes, ticket := compactCaller(t)
	tap(c.compact.enter)
	var onStrip bool
	var enabled []string
	WithUI(func() {
		onStrip = c.w.Content() == c.compact.strip && c.Compact() && c.w.FixedSize()
		enabled = compactEnabled(c)
	})
	if !onStrip || len(*changes) != 1 || !(*changes)[0] {
		t.Fatalf("after the compact button: on the strip %v, changes told %v", onStrip, *changes)
	}
	if strings.Join(enabled, ",") != "call" {
		t.Fatalf("an idle window's strip enables %v, want only call", enabled)
	}

	tap(c.compact.buttons[0]) // call
	storeSays(t, c, ticket, 1, model.Called)
	WithUI(func() { enabled = compactEnabled(c) })
	// The same rules as the full caller: a called ticket may be recalled,
	// passed or started, and the window may call again (a busy window).
	if strings.Join(enabled, ",") != "call,recall,pass,start" {
		t.Fatalf("a called ticket's strip enables %v", enabled)
	}
	var number string
	WithUI(func() { number = c.compact.number.Text })
	if number != "A001" {
		t.Fatalf("the strip shows %q, want A001", number)
	}
	tap(c.compact.buttons[1]) // recall
	waitFor(t, "A001 called twice", func() bool { return ticket(1).CallCount == 2 && !c.busy })
	tap(c.compact.buttons[3]) // start
	storeSays(t, c, ticket, 1, model.Serving)
	tap(c.compact.buttons[4]) // finish
	storeSays(t, c, ticket, 1, model.Done)
	tap(c.compact.buttons[0])
	storeSays(t, c, ticket, 2, model.Called)
	tap(c.compact.buttons[2]) // pass
	storeSays(t, c, ticket, 2, model.Passed)

	// Back to the full caller, which shows what the strip did.
	tap(c.compact.back)
	WithUI(func() { onStrip = c.w.Content() != c.content || c.Compact() || c.w.FixedSize() })
	if onStrip || len(*changes) != 2 || (*changes)[1] {
		t.Fatalf("after the strip's back button: still compact %v, changes told %v", onStrip, *changes)
	}
	waitFor(t, "A002 listed as passed on the full caller", func() bool { return passedRow(c, "A002") != nil })
}

// The strip on the demo morning: window 2 serving A003. It fits its size:
// nothing is cut off when the window is the strip's size.
func TestCompactCallerGolden(t *testing.T) {
	st := demoStore(t)
	w := newTestWindow(t, 560, 640)
	c := build(t, func(ctx context.Context) *Caller { return NewCaller(ctx, w, st, 2, &recorder{}) })
	waitLoaded(t, c.Loaded())
	waitFor(t, "A003 serving", func() bool { return c.number.Text == "A003" })
	var min, size fyne.Size
	WithUI(func() {
		c.SetCompact(true)
		min, size = c.compact.strip.MinSize(), w.Canvas().Size()
	})
	if min.Width > CompactSize.Width || min.Height > CompactSize.Height || size != CompactSize {
		t.Fatalf("the strip needs %v and the window is %v, want both within %v", min, size, CompactSize)
	}
	assertGolden(t, "caller_compact.xml", w)
}

// A sentence for the clerk (a hotkey taken, at the start of a day on the
// strip) is cut to the width the strip has left, in characters of either
// language: the strip stays within its size, a number called.
func TestCompactStripFitsASentence(t *testing.T) {
	c, _, ticket := compactCaller(t)
	tap(c.compact.enter)
	tap(c.compact.buttons[0])
	storeSays(t, c, ticket, 1, model.Called)
	for _, msg := range []string{
		Text("hotkey.taken", "Key", "ctrl+alt+K"),
		"The hotkey ctrl+alt+K is already taken by the system or another program: choose another key",
	} {
		var min fyne.Size
		var status string
		WithUI(func() {
			c.msg.SetText(msg)
			c.refresh()
			min, status = c.compact.strip.MinSize(), c.compact.status.Text
		})
		if min.Width > CompactSize.Width || !strings.HasPrefix(msg, strings.TrimSuffix(status, "…")) || status == "…" {
			t.Errorf("the strip shows %q of %q and needs %v, want within %v", status, msg, min, CompactSize)
		}
	}
}
