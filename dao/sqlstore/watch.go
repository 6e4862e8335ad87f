package sqlstore

import (
	"context"
	"sync"
	"time"

	"jiaohao/model"
)

// pollInterval bounds how late a change made by another PC (writing to the
// same server database) reaches this process's watchers; changes made
// through this Store wake them at once.
const pollInterval = 200 * time.Millisecond

// watchQueryTimeout bounds one read of the log by a watcher, so a frozen
// database cannot hold its connection (and the watcher) forever.
const watchQueryTimeout = 10 * time.Second

// hub is the one tail loop of a Store: it polls branch.version and wakes
// every watcher when it moves. Watchers read the events themselves, each at
// its own pace, so a slow one never delays the others.
type hub struct {
	mu      sync.Mutex
	changed chan struct{} // closed and replaced when the version moves
	wake    chan struct{}
	done    chan struct{}
	once    sync.Once
	head    int64
}

func (s *GormStore) notify() {
	if h := s.hub.Load(); h != nil {
		select {
		case h.wake <- struct{}{}:
		default:
		}
	}
}

func (s *GormStore) startHub() *hub {
	s.watchOnce.Do(func() {
		h := &hub{changed: make(chan struct{}), wake: make(chan struct{}, 1), done: make(chan struct{})}
		h.head, _ = s.pollVersion()
		s.hub.Store(h)
		go s.tail(h)
	})
	return s.hub.Load()
}

func (h *hub) stop() { h.once.Do(func() { close(h.done) }) }

func (h *hub) signal() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

// pollVersion reads branch.version for the tail loop, bounded so that a
// frozen database cannot hold the loop (and a connection) forever.
func (s *GormStore) pollVersion() (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	return s.version(s.db.WithContext(ctx))
}

func (s *GormStore) tail(h *hub) {
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		select {
		case <-h.done:
			return
		case <-tick.C:
		case <-h.wake:
		}
		v, err := s.pollVersion()
		if err != nil {
			continue
		}
		h.mu.Lock()
		if v != h.head {
			h.head = v
			close(h.changed)
			h.changed = make(chan struct{})
		}
		h.mu.Unlock()
	}
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
