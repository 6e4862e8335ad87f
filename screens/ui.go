// Package screens owns the desktop user interface: one Fyne view per role
// (kiosk, caller, hall screen, manager), the setup form and the theme. A
// screen sees only the queue through model.Store, the devices through the
// small PrintQueue and Announcer interfaces and the PC's setup through a
// SetupKeeper; it never touches a database driver or the preferences.
// Each role follows the live state through the model's Follower; store
// and network calls run on goroutines, and widgets change only on
// the UI goroutine through onUI.
package screens

import (
	"log"

	"fyne.io/fyne/v2"

	"jiaohao/model"
)

// PrintQueue takes tickets to print in the background; Submit must not
// block on the printer, and a failed print never undoes the ticket.
type PrintQueue interface {
	Submit(t model.Ticket, pos model.Position)
	// Fault describes the printer's current trouble, or "" when fine.
	Fault() string
}

// Announcer speaks or displays a call ("A012 to window 3") after it is
// committed; like printing, its failures never undo the call.
type Announcer interface {
	Announce(t model.Ticket)
	Fault() string
}

// LogPrinter is the PrintQueue of a PC without a printer: it writes each
// ticket to the log.
type LogPrinter struct{ Log *log.Logger }

// Submit logs the ticket.
func (p LogPrinter) Submit(t model.Ticket, pos model.Position) {
	logf(p.Log, "print ticket %s (%d ahead)", t.Number, pos.Ahead)
}

// Fault is always "": logging does not fail.
func (LogPrinter) Fault() string { return "" }

// LogAnnouncer is the Announcer of a PC without voice output.
type LogAnnouncer struct{ Log *log.Logger }

// Announce logs the call.
func (a LogAnnouncer) Announce(t model.Ticket) {
	logf(a.Log, "announce %s to window %d", t.Number, t.Window)
}

// Fault is always "".
func (LogAnnouncer) Fault() string { return "" }

func logf(l *log.Logger, format string, args ...any) {
	if l == nil {
		l = log.Default()
	}
	l.Printf(format, args...)
}

// onUI runs f on the UI goroutine. Only goroutines call it: a handler that
// already runs on the UI goroutine changes widgets directly. (Without a
// display, package offscreen makes the test driver keep the same rule.)
func onUI(f func()) { fyne.Do(f) }
