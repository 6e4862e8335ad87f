package peer

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"jiaohao/model"
)

// hub keeps the server's one Watch on the store and fans every event out to
// all subscribers. Sends never block: a subscriber whose buffer is full is
// dropped (and told to resync), so one slow screen never delays the others.
type hub struct {
	store model.Store
	buf   int
	log   *slog.Logger
	ctx   context.Context

	once  sync.Once
	ready chan struct{} // closed once the starting version is known

	mu      sync.Mutex
	version int64 // newest event fanned out
	subs    map[*subscriber]struct{}
}

// encoded is an event with its wire form, marshalled once for every
// subscriber.
type encoded struct {
	model.Event
	wire []byte
}

// subscriber is one WebSocket (or customer page) listening to the hub.
type subscriber struct {
	ch      chan encoded
	dropped chan struct{} // closed when the hub gives up on this subscriber
}

func newHub(ctx context.Context, store model.Store, buf int, log *slog.Logger) *hub {
	return &hub{store: store, buf: buf, log: log, ctx: ctx,
		ready: make(chan struct{}), subs: map[*subscriber]struct{}{}}
}

// start begins tailing the store; later calls do nothing.
func (h *hub) start() { h.once.Do(func() { go h.run() }) }

var errStoreResync = errors.New("store asked for a resync")

func (h *hub) run() {
	defer h.dropAll()
	fresh := true // need a snapshot version, not a continuation
	for attempt := 0; h.ctx.Err() == nil; attempt++ {
		err := h.tail(fresh)
		if h.ctx.Err() != nil {
			return
		}
		if errors.Is(err, errStoreResync) {
			h.dropAll() // they cannot be told what was lost
			fresh = true
		} else {
			fresh = false
		}
		h.log.Warn("event watch restarting", "err", model.ErrorCode(err))
		select {
		case <-h.ctx.Done():
			return
		case <-time.After(backoff(attempt)):
		}
	}
}

// tail watches the store from the hub's version until the watch ends.
func (h *hub) tail(fresh bool) error {
	if fresh {
		snap, err := h.store.Snapshot(h.ctx)
		if err != nil {
			return err
		}
		h.mu.Lock()
		h.version = snap.Version
		h.mu.Unlock()
	}
	h.mu.Lock()
	since := h.version
	h.mu.Unlock()
	ctx, cancel := context.WithCancel(h.ctx)
	defer cancel()
	ch, err := h.store.Watch(ctx, since)
	if err != nil {
		return err
	}
	select {
	case <-h.ready:
	default:
		close(h.ready)
	}
	for ev := range ch {
		if ev.Kind == model.EvResync {
			return errStoreResync
		}
		h.publish(ev)
	}
	return errors.New("watch ended")
}

func (h *hub) publish(ev model.Event) {
	wire, err := json.Marshal(message{Type: msgEvent, Event: ev})
	if err != nil {
		h.log.Error("event not encodable", "version", ev.Version)
		return
	}
	enc := encoded{Event: ev, wire: wire}
	h.mu.Lock()
	defer h.mu.Unlock()
	if ev.Version <= h.version {
		return // already sent
	}
	if ev.Version != h.version+1 {
		// A hole would silently corrupt every screen: make them reload.
		h.dropAllLocked()
	}
	h.version = ev.Version
	for s := range h.subs {
		select {
		case s.ch <- enc:
		default:
			h.dropLocked(s)
		}
	}
}

// subscribe registers a listener and returns the newest version the hub
// has fanned out: every later event reaches the subscriber's channel.
func (h *hub) subscribe(ctx context.Context) (*subscriber, int64, error) {
	h.start()
	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	select {
	case <-h.ready:
	case <-h.ctx.Done():
		return nil, 0, model.Errorf(model.EUnavailable, "服务器正在关闭 (server shutting down)")
	case <-wait.Done():
		return nil, 0, model.Errorf(model.EUnavailable, "事件源不可用 (event source unavailable)")
	}
	s := &subscriber{ch: make(chan encoded, h.buf), dropped: make(chan struct{})}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ctx.Err() != nil {
		return nil, 0, model.Errorf(model.EUnavailable, "服务器正在关闭 (server shutting down)")
	}
	h.subs[s] = struct{}{}
	return s, h.version, nil
}

// head is the newest version fanned out: every event up to it is
// committed.
func (h *hub) head() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.version
}

func (h *hub) unsubscribe(s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, s)
}

func (h *hub) dropLocked(s *subscriber) {
	delete(h.subs, s)
	close(s.dropped)
}

func (h *hub) dropAllLocked() {
	for s := range h.subs {
		h.dropLocked(s)
	}
}

func (h *hub) dropAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dropAllLocked()
}

// backoff is exponential from 250 ms, capped at 5 s, with jitter so that a
// room full of terminals does not reconnect in lockstep.
func backoff(attempt int) time.Duration {
	d := 250 * time.Millisecond
	for i := 0; i < attempt && d < 5*time.Second; i++ {
		d *= 2
	}
	if d > 5*time.Second {
		d = 5 * time.Second
	}
	return d/2 + rand.N(d/2+1)
}
