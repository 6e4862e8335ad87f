package sqlstore

import (
	"context"
	"sync"
	"time"

	"jiaohao/model"
)

// pollInterval bounds how late a change made by another PC (writing to the
// same server database) reaches this process's watchers; changes made
// through this process's Stores wake them at once.
const pollInterval = 200 * time.Millisecond

// watchQueryTimeout bounds one read of the log by a watcher, so a frozen
// database cannot hold its connection (and the watcher) forever.
const watchQueryTimeout = 10 * time.Second

// hub is a Store's watch: the version its watchers have been woken for.
// The pool's versionWatch moves it; watchers read the events themselves,
// each at its own pace, so a slow one never delays the others.
type hub struct {
	branch  int64
	mu      sync.Mutex
	changed chan struct{} // closed and replaced when the version moves
	done    chan struct{}
	once    sync.Once
	head    int64
	// local counts the moves made by writes through the Stores: a poll
	// that began before one may read the version it replaced.
	local uint64
}

// notify wakes the watchers of every Store of this pool serving the branch
// of a write just committed with version v, without asking the database.
func (s *GormStore) notify(v int64) {
	if v > 0 {
		s.watch.wrote(s.branchID, v)
	}
}

func (s *GormStore) startHub() *hub {
	s.watchOnce.Do(func() {
		h := &hub{branch: s.branchID, changed: make(chan struct{}), done: make(chan struct{})}
		h.head, _ = s.pollVersion()
		s.hub.Store(h)
		s.watch.join(h)
	})
	return s.hub.Load()
}

// stop ends the hub's watchers; the pool's watch no longer reads its
// branch's version for it.
func (s *GormStore) stopHub() {
	if h := s.hub.Load(); h != nil {
		s.watch.leave(h)
		h.once.Do(func() { close(h.done) })
	}
}

func (h *hub) signal() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

// move sets the hub's version and wakes its watchers if it moved. A write
// only moves it forward; a poll also back (the database was replaced),
// unless a write moved it since the poll began (local is then no longer
// the poll's).
func (h *hub) move(v int64, write bool, local uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case write && v <= h.head, !write && v == h.head, !write && v < h.head && h.local != local:
		return
	}
	if write {
		h.local++
	}
	h.head = v
	close(h.changed)
	h.changed = make(chan struct{})
}

func (h *hub) localMoves() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.local
}

// pollVersion reads branch.version for a new hub, bounded so that a frozen
// database cannot hold it (and a connection) forever.
func (s *GormStore) pollVersion() (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	return s.version(s.db.WithContext(ctx))
}

// Watch streams events with version > since. A since ahead of the log (the
// database was replaced) yields one resync event first.
func (s *GormStore) Watch(ctx context.Context, since int64) (<-chan model.Event, error) {
	h := s.startHub()
	head, err := s.version(s.db.WithContext(ctx))
	if err != nil {
		return nil, s.wrap(err)
	}
	out := make(chan model.Event, 64)
	go func() {
		defer close(out)
		last := since
		if since > head {
			if !send(ctx, out, model.Event{Kind: model.EvResync, Version: head}) {
				return
			}
			last = head
		}
		for {
			changed := h.signal()
			qctx, cancel := context.WithTimeout(ctx, watchQueryTimeout)
			evs, err := s.EventsSince(qctx, last, 500)
			cancel()
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				evs = nil // database hiccup: wait for the next change or tick
			}
			for _, e := range evs {
				if !send(ctx, out, e) {
					return
				}
				last = e.Version
			}
			if len(evs) == 500 {
				continue
			}
			select {
			case <-ctx.Done():
				return
			case <-h.done:
				return
			case <-changed:
			case <-time.After(2 * time.Second):
			}
		}
	}()
	return out, nil
}

func send(ctx context.Context, out chan<- model.Event, e model.Event) bool {
	select {
	case out <- e:
		return true
	case <-ctx.Done():
		return false
	}
}
