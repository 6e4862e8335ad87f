package screens

import (
	"sync/atomic"
	"time"

	"jiaohao/model"
)

// view is a role's side of the follower; both methods run on the UI
// goroutine. show gets each step of the live state (the events in it are
// what the hall announces); link the link to the store going down or up.
type view interface {
	show(c model.Change)
	link(up bool)
}

// follow builds the model's follower for v: each change and link state
// reaches v through onUI, and the store's clock and zone set clock.
func follow(st model.Live, v view, clock *serverClock) *model.Follower {
	f := model.NewFollower(st, func(c model.Change) {
		if c.Reloaded {
			clock.setZone(c.Snapshot.TimeZone)
		}
		onUI(func() { v.show(c) })
	})
	f.Clock = clock.set
	f.Link = func(err error) {
		up := err == nil
		onUI(func() { v.link(up) })
	}
	return f
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
