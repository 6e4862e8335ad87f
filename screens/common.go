package screens

import (
	"context"
	"image/color"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// opTimeout bounds one store call made for a button, so a dead link turns
// into a sentence on screen instead of a frozen button.
var opTimeout = 10 * time.Second

// base is what every live role shares: the follower that keeps its state
// and the server clock.
type base struct {
	ctx    context.Context
	st     model.Store
	clock  serverClock
	follow *model.Follower
	wg     sync.WaitGroup
	// looks counts the branch look reads (loadLook): only the newest
	// one's answer is applied, whatever order the answers come in.
	looks int
	// lookLogo is the logo the last applied read brought: a read of it
	// that fails keeps it.
	lookLogo []byte
}

// start begins following the store for v until ctx ends.
func (b *base) start(ctx context.Context, st model.Store, v view) {
	b.ctx, b.st = ctx, st
	b.follow = follow(st, v, &b.clock)
	b.wg.Go(func() { b.follow.Run(ctx) })
}

// Wait returns once every goroutine of the screen has stopped, which they
// do soon after the context given at construction ends.
func (b *base) Wait() { b.wg.Wait() }

// Loaded is closed once the first snapshot is on screen.
func (b *base) Loaded() <-chan struct{} { return b.follow.Loaded() }

// Reloads counts the snapshots loaded and Applied the events folded in
// without one; they show that live updates follow events, not polling.
func (b *base) Reloads() int64 { return b.follow.Reloads() }

// Applied counts events folded in without a reload.
func (b *base) Applied() int64 { return b.follow.Applied() }

// async runs work off the UI goroutine with a bounded context and hands
// its error to done on the UI goroutine.
func (b *base) async(work func(ctx context.Context) error, done func(err error)) {
	b.asyncFor(opTimeout, work, done)
}

// asyncFor is async with its own bound, for work that is long by nature (a
// month's report).
func (b *base) asyncFor(limit time.Duration, work func(ctx context.Context) error, done func(err error)) {
	b.wg.Go(func() {
		ctx, cancel := context.WithTimeout(b.ctx, limit)
		defer cancel()
		err := work(ctx)
		onUI(func() { done(err) })
	})
}

// bigText is a canvas text at a fixed size, for numbers meant to be read
// from across a room.
func bigText(s string, size float32, c color.Color) *canvas.Text {
	t := canvas.NewText(s, c)
	t.TextSize = size
	t.TextStyle = fyne.TextStyle{Bold: true}
	t.Alignment = fyne.TextAlignCenter
	return t
}

// setText changes a canvas text only when it differs, sparing a redraw.
func setText(t *canvas.Text, s string) {
	if t.Text != s {
		t.Text = s
		t.Refresh()
	}
}

// enable switches a button on or off.
func enable(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// every runs f on the UI goroutine each d until ctx ends, then last (if
// not nil) once: the clocks and the redraws between events.
func every(ctx context.Context, d time.Duration, f, last func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			if last != nil {
				onUI(last)
			}
			return
		case <-t.C:
			onUI(f)
		}
	}
}
