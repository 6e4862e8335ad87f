package model

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Change is one step of a followed live state, as a Follower hands it on.
type Change struct {
	// Snapshot is the state after the step, a copy its user may keep.
	Snapshot Snapshot
	// Events are the events folded in since the previous Change, in
	// version order; none when Reloaded.
	Events []Event
	// Reloaded says Snapshot was loaded afresh: at the start, after a gap,
	// a resync, a configuration change or a lost link.
	Reloaded bool
}

// Follower timing. The heartbeat asks the store for its clock only: it
// keeps a displayed time on server time and notices a dropped link even
// when no event is due.
const (
	followHeartbeat  = 15 * time.Second
	followRetryFirst = 500 * time.Millisecond
	followRetryMax   = 5 * time.Second
	followBatch      = 256
)

// Follower keeps a Snapshot in step with a Live for one user: it loads the
// snapshot, applies the watched events in version order (Snapshot.Apply),
// and on a gap, a resync, a configuration change or a lost link loads a
// fresh snapshot once and goes on from its version. It never polls for
// state. Every role that shows or announces the queue follows it this way,
// so none of them can drift from the store on its own.
type Follower struct {
	// Batch bounds the events handed on in one Change (default 256), so a
	// burst costs one redraw; 1 hands each event on with the state after
	// it. Set before Run.
	Batch int
	// Link, when set, hears the link to the store go down (with why) and
	// come back (nil), on changes only.
	Link func(err error)
	// Clock, when set, hears the store's clock at each snapshot and
	// heartbeat.
	Clock func(now time.Time)

	live   Live
	handle func(Change)
	up     bool // the link as last told; Run's goroutine only

	applied atomic.Int64
	reloads atomic.Int64
	loaded  chan struct{}
	once    sync.Once
}

// NewFollower follows live for handle, which Run calls on its own
// goroutine, one Change at a time, in order.
func NewFollower(live Live, handle func(Change)) *Follower {
	return &Follower{live: live, handle: handle, up: true, loaded: make(chan struct{})}
}

// Loaded is closed once the first snapshot has been handed on.
func (f *Follower) Loaded() <-chan struct{} { return f.loaded }

// Applied counts the events folded in without loading a snapshot.
func (f *Follower) Applied() int64 { return f.applied.Load() }

// Reloads counts the snapshots loaded.
func (f *Follower) Reloads() int64 { return f.reloads.Load() }

// Run follows until ctx ends, retrying a failed link with backoff.
func (f *Follower) Run(ctx context.Context) {
	wait := followRetryFirst
	for ctx.Err() == nil {
		err := f.session(ctx)
		if ctx.Err() != nil {
			return
		}
		if err == nil { // a reload was asked for: no need to wait
			wait = followRetryFirst
			continue
		}
		f.setLink(err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(wait*2, followRetryMax)
	}
}

// session loads one snapshot and follows events until a reload is needed
// (nil) or the link fails (an error).
func (f *Follower) session(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	snap, err := f.live.Snapshot(ctx)
	if err != nil {
		return err
	}
	events, err := f.live.Watch(ctx, snap.Version)
	if err != nil {
		return err
	}
	f.reloads.Add(1)
	f.tellClock(snap.Now)
	f.deliver(Change{Snapshot: snap.Clone(), Reloaded: true})
	f.setLink(nil)
	beat := time.NewTicker(followHeartbeat)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-beat.C:
			now, err := f.live.Now(ctx)
			if err != nil {
				f.setLink(err)
				continue
			}
			f.tellClock(now)
			if !f.up {
				return nil // the link came back: reload, events may be missing
			}
			if dayOver(snap, now) {
				return nil // a new business day: its counts and lists start empty
			}
		case ev, ok := <-events:
			if !ok {
				return Errorf(EUnavailable, "event stream closed")
			}
			batch := f.gather(ev, events)
			for i, e := range batch {
				if dayOver(snap, e.At) || !snap.Apply(e) {
					if i > 0 { // hand on (and so announce) what came before the reload
						f.applied.Add(int64(i))
						f.deliver(Change{Snapshot: snap.Clone(), Events: batch[:i]})
					}
					return nil
				}
			}
			f.applied.Add(int64(len(batch)))
			f.deliver(Change{Snapshot: snap.Clone(), Events: batch})
		}
	}
}

// dayOver says whether at is in a later business day than snap: the
// snapshot's date, day counts and lists (and a desk's "today") no longer
// hold, and only a fresh snapshot says what the new day is.
func dayOver(snap Snapshot, at time.Time) bool {
	return !snap.DayEnds.IsZero() && !at.IsZero() && !at.Before(snap.DayEnds)
}

// gather takes first and whatever else is already waiting, up to Batch.
func (f *Follower) gather(first Event, events <-chan Event) []Event {
	limit := f.Batch
	if limit <= 0 {
		limit = followBatch
	}
	batch := []Event{first}
	for len(batch) < limit {
		select {
		case e, ok := <-events:
			if !ok {
				return batch // the next receive reports the closed stream
			}
			batch = append(batch, e)
		default:
			return batch
		}
	}
	return batch
}

func (f *Follower) deliver(c Change) {
	f.handle(c)
	f.once.Do(func() { close(f.loaded) })
}

// setLink tells Link when the link state changes.
func (f *Follower) setLink(err error) {
	if up := err == nil; up != f.up {
		f.up = up
		if f.Link != nil {
			f.Link(err)
		}
	}
}

func (f *Follower) tellClock(now time.Time) {
	if f.Clock != nil {
		f.Clock(now)
	}
}
