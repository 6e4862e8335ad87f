package screens

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"jiaohao/model"
)

// update is what the follower hands a view: the whole live state and the
// events folded in since the previous update (none after a reload).
type update struct {
	snap     model.Snapshot
	events   []model.Event
	reloaded bool
}

// view is a role's side of the follower; both methods run on the UI
// goroutine.
type view interface {
	show(u update)
	link(up bool)
}

// Heartbeat and retry timing. The heartbeat asks the store for its clock:
// it keeps the displayed time on server time and notices a dropped link
// even when no event is due.
var (
	heartbeat  = 15 * time.Second
	retryFirst = 500 * time.Millisecond
	retryMax   = 5 * time.Second
	maxBatch   = 256 // events folded into one UI update at most
)

// follower keeps a board in step with the store: snapshot, then the event
// stream; on a gap, a configuration change or a lost link it reloads the
// snapshot. It never polls for state.
type follower struct {
	st    model.Store
	v     view
	clock *serverClock

	applied atomic.Int64 // events folded in without a reload
	reloads atomic.Int64 // snapshots loaded
	loaded  chan struct{}
	once    sync.Once
	up      bool // the link as last shown; touched by run's goroutine only
}

func newFollower(st model.Store, v view, clock *serverClock) *follower {
	return &follower{st: st, v: v, clock: clock, loaded: make(chan struct{}), up: true}
}

// setLink shows the link state when it changes.
func (f *follower) setLink(up bool) {
	if up != f.up {
		f.up = up
		onUI(func() { f.v.link(up) })
	}
}

// run follows until ctx ends.
func (f *follower) run(ctx context.Context) {
	wait := retryFirst
	for ctx.Err() == nil {
		err := f.session(ctx)
		if ctx.Err() != nil {
			return
		}
		if err == nil { // a reload was asked for: no need to wait
			wait = retryFirst
			continue
		}
		f.setLink(false)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(wait*2, retryMax)
	}
}

// session loads one snapshot and follows events until a reload is needed
// (nil) or the link fails (an error).
func (f *follower) session(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	snap, err := f.st.Snapshot(ctx)
	if err != nil {
		return err
	}
	events, err := f.st.Watch(ctx, snap.Version)
	if err != nil {
		return err
	}
	f.reloads.Add(1)
	f.clock.set(snap.Now)
	f.clock.setZone(snap.TimeZone)
	b := &board{Snapshot: snap}
	f.deliver(update{snap: b.clone(), reloaded: true})
	f.setLink(true)
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-beat.C:
			now, err := f.st.Now(ctx)
			if err != nil {
				f.setLink(false)
				continue
			}
			f.clock.set(now)
			if !f.up {
				return nil // the link came back: reload, events may be missing
			}
		case ev, ok := <-events:
			if !ok {
				return model.Errorf(model.EUnavailable, "event stream closed")
			}
			batch, more := []model.Event{ev}, true
			for more && len(batch) < maxBatch {
				select {
				case e, ok := <-events:
					if !ok {
						more = false
						break
					}
					batch = append(batch, e)
				default:
					more = false
				}
			}
			for i, e := range batch {
				if !b.apply(e) {
					if i > 0 { // show (and announce) what came before the reload
						f.applied.Add(int64(i))
						f.deliver(update{snap: b.clone(), events: batch[:i]})
					}
					return nil
				}
			}
			f.applied.Add(int64(len(batch)))
			f.deliver(update{snap: b.clone(), events: batch})
		}
	}
}

func (f *follower) deliver(u update) {
	onUI(func() { f.v.show(u) })
	f.once.Do(func() { close(f.loaded) })
}

// serverClock is the store's clock as seen from this PC: the offset to the
// local clock is measured at each snapshot and heartbeat, so the clock on
// a screen shows server time even when the PC's own clock is off.
//
// Times are shown in the branch's zone from the snapshot, not the PC's, so a
// PC set to the wrong zone still shows the hall the right hour and opens
// the kiosk at the right time.
type serverClock struct {
	offset atomic.Int64
	zone   atomic.Pointer[time.Location]
}

// setZone takes the branch's zone name; an unknown name keeps the last.
func (c *serverClock) setZone(name string) {
	if name == "" {
		return
	}
	if loc, err := time.LoadLocation(name); err == nil {
		c.zone.Store(loc)
	}
}

func (c *serverClock) in(t time.Time) time.Time {
	if loc := c.zone.Load(); loc != nil {
		return t.In(loc)
	}
	return t
}

func (c *serverClock) set(server time.Time) {
	if !server.IsZero() {
		c.offset.Store(int64(server.Sub(time.Now())))
	}
}

// now is the server's current time.
func (c *serverClock) now() time.Time {
	return c.in(serverTime(time.Duration(c.offset.Load())))
}

// serverTime is this PC's clock moved by the server's offset; the tests
// stop it at one instant so their renders repeat.
var serverTime = func(offset time.Duration) time.Time { return time.Now().Add(offset) }
