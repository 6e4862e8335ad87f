package printing

import (
	"context"
	"time"
)

// backoff is the wait before retry n (1-based): min, 2·min, 4·min … max.
// Devices come back on their own (paper refilled, cable replugged), so the
// retries never stop; the cap keeps the recovery quick once they do.
func backoff(n int, min, max time.Duration) time.Duration {
	d := min
	for i := 1; i < n && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	return d
}

// sleepCtx waits d or until ctx ends; it reports whether the full wait ran.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// signal is a broadcast that can fire many times: waiters take the current
// channel, and fire closes it and makes a new one.
type signal struct{ ch chan struct{} }

func newSignal() signal { return signal{ch: make(chan struct{})} }

// fire wakes everyone waiting on the channel taken before; call it with the
// owner's lock held.
func (s *signal) fire() {
	close(s.ch)
	s.ch = make(chan struct{})
}
