// Package offscreen runs the screens without a display, on Fyne's test
// driver: the screenshot command renders its pictures with it and the
// screens' tests drive their widgets with it. That driver runs fyne.Do at
// once on the calling goroutine, so the screens' live updates would meet
// each other and the caller's taps and reads; this package gives the
// driver what a display has, one UI goroutine at a time: every fyne.Do of
// a serialised app and every Do here run under one lock. It also says when
// the screens have gone quiet and lays a canvas out for a capture.
package offscreen

import (
	"context"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// mu is the one UI goroutine: whoever holds it may touch widgets.
var mu sync.Mutex

// NewApp is Fyne's test app, serialised and current.
func NewApp() fyne.App { return Serialise(test.NewApp()) }

// Serialise makes a (a test app) the current app with its fyne.Do calls
// run under the lock, and returns it so wrapped.
func Serialise(a fyne.App) fyne.App {
	s := &app{App: a, driver: driver{a.Driver()}}
	fyne.SetCurrentApp(s)
	return s
}

type app struct {
	fyne.App
	driver driver
}

func (a *app) Driver() fyne.Driver { return a.driver }

type driver struct{ fyne.Driver }

// DoFromGoroutine is where fyne.Do lands: f runs under the lock, and the
// screens count as changed after it.
func (d driver) DoFromGoroutine(f func(), wait bool) {
	d.Driver.DoFromGoroutine(func() {
		Do(f)
		changed.fire()
	}, wait)
}

// Do runs f holding the lock, so the caller (a test's tap or read, the
// screenshot's build and capture) sees the widgets between two updates.
// f must not wait for a fyne.Do of its own.
func Do(f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}

// Changed returns a channel closed at the next fyne.Do: a test waiting for
// a screen to show something looks again then instead of sleeping.
func Changed() <-chan struct{} { return changed.c() }

// Quiet returns once no fyne.Do has run for d (a screen's clock ticks once
// a second, so d should be well under that), or when ctx ends.
func Quiet(ctx context.Context, d time.Duration) error {
	for {
		ch := Changed()
		select {
		case <-ch:
		case <-time.After(d):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Settle lays out the whole content of c from the current sizes of its
// objects. A live window does this every frame; the software canvas of a
// capture does not, so it is called before one, inside Do.
func Settle(c fyne.Canvas) {
	if o, ok := c.Content().(*fyne.Container); ok {
		o.Refresh()
		return
	}
	c.Content().Refresh()
}

var changed = &signal{ch: make(chan struct{})}

// signal is a broadcast that can fire many times: each fire closes the
// channel the waiters hold and hands out a new one.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

func (s *signal) c() <-chan struct{} {
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
