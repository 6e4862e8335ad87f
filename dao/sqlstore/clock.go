package sqlstore

import (
	"context"
	"sync"
	"time"
)

// clockResync is how long a reading of the database clock is extrapolated
// before it is read again.
const clockResync = 30 * time.Second

// dbClock is the database server's clock, read once in a while and carried
// forward with this PC's monotonic clock, so each operation does not pay a
// round trip for it. The monotonic clock is immune to changes of the PC's
// wall clock, which is never trusted (seed 003: a PC eight minutes fast).
type dbClock struct {
	mu    sync.Mutex
	base  time.Time // database time at the reading
	local time.Time // this process's monotonic time at the reading
}

func (c *dbClock) now(ctx context.Context, read func(context.Context) (time.Time, error)) (time.Time, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.local.IsZero() && time.Since(c.local) < clockResync && !c.slept() {
		return c.base.Add(time.Since(c.local)), nil
	}
	t0 := time.Now()
	t, err := read(ctx)
	if err != nil {
		return t, err
	}
	rtt := time.Since(t0)
	c.base, c.local = t.UTC(), t0.Add(rtt/2)
	return c.base.Add(time.Since(c.local)), nil
}

// slept reports whether the PC was suspended since the reading: the
// monotonic clock stands still during sleep while the wall clock moves, so
// the extrapolation would lag (a ticket after waking could get yesterday's
// date). Then the database clock is read again.
func (c *dbClock) slept() bool {
	wall := time.Now().Round(0).Sub(c.local.Round(0))
	mono := time.Since(c.local)
	d := wall - mono
	return d > time.Second || d < -time.Second
}

// codeCache maps service ids to codes. A service's id and code never change
// once created (services are saved by code and never deleted), so entries
// stay valid; a miss reloads.
type codeCache struct {
	mu sync.RWMutex
	m  codes
}

func (c *codeCache) get(ids ...int64) (codes, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, id := range ids {
		if _, ok := c.m[id]; !ok {
			return nil, false
		}
	}
	return c.m, true
}

func (c *codeCache) set(m codes) {
	c.mu.Lock()
	c.m = m
	c.mu.Unlock()
}
