package printing

import (
	"context"
	"fmt"
	"log"
	"strconv"
	"strings"

	"jiaohao/model"
)

// defaultLEDTemplate fits a 16-character window bar.
const defaultLEDTemplate = "请 {number} 号到 {window} 号窗口"

// LEDLunchText is a window bar's text while its window is at lunch (午休),
// so customers in the hall do not wait at an empty desk.
const LEDLunchText = "午休中"

// Display is what an LED board writes to; *LED is one.
type Display interface{ Show(text string) }

// LEDBoard shows calls on one bar: a window's bar the last number called
// there (LEDLunchText while the window is at lunch), a hall bar (Window 0)
// the last Lines calls. Its text is read off
// the followed live state (the snapshot's recent calls), so a bar that ran
// all day and one just started show the same.
type LEDBoard struct {
	Display  Display
	Window   int    // 0: hall bar
	Lines    int    // calls a hall bar shows; default 1
	Template string // window bar; default "请 {number} 号到 {window} 号窗口"
	// Staff: a window's bar follows the call with the clerk signed in
	// there, staff number and name (led_format staff=true).
	Staff   bool
	shown   string
	started bool
	last    int64 // a window bar: the ticket last called at its window
}

// Update shows the bar's text for one step of the followed state: when the
// text changes, and again on each call for the bar (a recall calls the
// same number anew).
func (b *LEDBoard) Update(c model.Change) {
	b.follow(c)
	text := b.text(c.Snapshot)
	if b.started && text == b.shown && !b.calledHere(c.Events) {
		return
	}
	b.started, b.shown = true, text
	b.Display.Show(text)
}

func (b *LEDBoard) calledHere(events []model.Event) bool {
	for _, ev := range events {
		if model.IsCall(ev) && (b.Window == 0 || ev.Ticket.Window == b.Window) {
			return true
		}
	}
	return false
}

// follow keeps which ticket was last called at a window bar's window. A
// fresh bar takes the newest call there from the snapshot.
func (b *LEDBoard) follow(c model.Change) {
	if b.Window == 0 {
		return
	}
	for _, ev := range c.Events {
		if model.IsCall(ev) && ev.Ticket.Window == b.Window {
			b.last = ev.Ticket.ID
		}
	}
	if b.last == 0 && c.Reloaded {
		for _, t := range c.Snapshot.RecentCalls {
			if t.Window == b.Window {
				b.last = t.ID
				break
			}
		}
	}
}

// calls lists what the bar shows, newest call first. A window's bar shows
// the number last called there while that ticket is still at the window
// (called, served, or finished there): once it left (timed out, requeued,
// transferred) the bar is blank, never an older number already served.
func (b *LEDBoard) calls(s model.Snapshot) []model.Ticket {
	if b.Window != 0 {
		for _, t := range s.RecentCalls {
			if t.ID == b.last && t.Window == b.Window {
				return []model.Ticket{t}
			}
		}
		return nil
	}
	keep := max(b.Lines, 1)
	var out []model.Ticket
	for _, t := range s.RecentCalls {
		if len(out) == keep {
			break
		}
		if t.Window != 0 && (b.Window == 0 || t.Window == b.Window) { // a ticket back in line is at no window
			out = append(out, t)
		}
	}
	return out
}

func (b *LEDBoard) text(s model.Snapshot) string {
	if b.Window != 0 {
		for _, w := range s.Windows {
			if w.Number == b.Window && w.Status == model.WindowLunch {
				return LEDLunchText
			}
		}
	}
	calls := b.calls(s)
	if len(calls) == 0 {
		return ""
	}
	if b.Window != 0 {
		tmpl := b.Template
		if tmpl == "" {
			tmpl = defaultLEDTemplate
		}
		t := calls[0]
		text := strings.NewReplacer("{number}", t.Number, "{window}", strconv.Itoa(t.Window)).Replace(tmpl)
		return text + b.clerk(s)
	}
	parts := make([]string, 0, len(calls))
	for _, t := range calls {
		parts = append(parts, fmt.Sprintf("%s→%d号窗口", t.Number, t.Window))
	}
	return strings.Join(parts, "  ")
}

// clerk is " number name" of the clerk at a window bar's window when the
// bar names them, else "".
func (b *LEDBoard) clerk(s model.Snapshot) string {
	if !b.Staff {
		return ""
	}
	for _, w := range s.Windows {
		if w.Number == b.Window && w.Clerk != nil {
			return " " + w.Clerk.Number + " " + w.Clerk.Name
		}
	}
	return ""
}

// RunLEDBoards keeps boards on the store's live state until ctx ends,
// through the model's follower (which reloads the snapshot whenever events
// were missed or the link broke). It hands each event on by itself, so a
// hall bar shows every call of a burst in turn.
func RunLEDBoards(ctx context.Context, live model.Live, boards ...*LEDBoard) {
	f := model.NewFollower(live, func(c model.Change) {
		for _, b := range boards {
			b.Update(c)
		}
	})
	f.Batch = 1
	f.Link = func(err error) {
		if err != nil {
			log.Printf("printing: LED event stream: %v", err)
		}
	}
	f.Run(ctx)
}
