package peer

import (
	"net/netip"
	"time"
)

// Failed sign-ins on the staff page, counted per client address so that
// guessing is slow, and never standing in the way of a right token (see
// staffSignIn). An IPv6 client is counted by its /64: one device may
// pick any address in its network's /64, so counting single addresses
// would give it as many tries as it likes.

type signInFails struct {
	n     int
	since time.Time
}

// failKey is what the failures of addr are counted under.
func failKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.WithZone("").Unmap()
	if ip.Is4() {
		return ip.String()
	}
	p, err := ip.Prefix(64)
	if err != nil {
		return ip.String()
	}
	return p.String()
}

// failed counts a bad sign-in from addr and reports whether the address
// is now past signInFailLimit within signInFailWindow. Past
// maxSignInTrackers counted addresses the stale ones go, and then the
// oldest: a flood from many addresses cannot make a new one uncounted.
func (ss *staffSessions) failed(addr string) bool {
	now, key := ss.now(), failKey(addr)
	ss.mu.Lock()
	defer ss.mu.Unlock()
	f, ok := ss.fails[key]
	if ok && now.Sub(f.since) >= signInFailWindow {
		delete(ss.fails, key)
		ok = false
	}
	if !ok {
		if len(ss.fails) >= maxSignInTrackers {
			ss.evictFailsLocked(now)
		}
		f = &signInFails{since: now}
		ss.fails[key] = f
	}
	f.n++
	return f.n > signInFailLimit
}

// evictFailsLocked drops stale failure counts, or else the oldest one.
func (ss *staffSessions) evictFailsLocked(now time.Time) {
	var oldestKey string
	var oldest time.Time
	for k, f := range ss.fails {
		if now.Sub(f.since) >= signInFailWindow {
			delete(ss.fails, k)
		} else if oldestKey == "" || f.since.Before(oldest) {
			oldestKey, oldest = k, f.since
		}
	}
	if len(ss.fails) >= maxSignInTrackers {
		delete(ss.fails, oldestKey)
	}
}
