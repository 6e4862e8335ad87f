// Package screens owns the desktop user interface: one Fyne view per role
// (kiosk, caller, hall screen, manager), the setup form and the theme. A
// screen sees only the queue through model.Store and the devices through the
// small PrintQueue and Announcer interfaces; it never touches a database
// driver. Each role follows the live state through the model's Follower;
// store and network calls run on goroutines, and widgets change only on
// the UI goroutine through onUI.
package screens

import (
	"log"
	"sync"

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

// uiMu serialises widget updates made from goroutines. On a real display
// fyne.Do already runs them on the one UI goroutine, so the lock is never
// contended; under the test driver fyne.Do runs the function in place, and
// the lock is what keeps a test's taps and reads apart from live updates.
var uiMu sync.Mutex

// onUI runs f on the UI goroutine. Only goroutines call it: a handler that
// already runs on the UI goroutine changes widgets directly.
func onUI(f func()) {
	fyne.Do(func() {
		uiMu.Lock()
		f()
		uiMu.Unlock()
		uiChanged.fire()
	})
}

// uiChanged fires after every update made through onUI, so a caller that
// needs the screen settled (tests, the screenshot command) waits for it
// instead of sleeping.
var uiChanged = &signal{ch: make(chan struct{})}

type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

// C returns a channel closed at the next fire.
func (s *signal) C() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

func (s *signal) fire() {
	s.mu.Lock()
	close(s.ch)
	s.ch = make(chan struct{})
	s.mu.Unlock()
}
