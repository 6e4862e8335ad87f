package peer

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"jiaohao/model"
)

// events is GET /api/v1/events?since=V: the missed events from the log,
// then live ones, one JSON message each, in version order. When V cannot be
// continued (too old, ahead of the server, a hole in the log) the first
// message is a resync notice and the stream goes on from the server's
// version; the client reloads the snapshot and skips what it already has.
func (s *Server) events(w http.ResponseWriter, r *http.Request, p principal) error {
	q := r.URL.Query()
	since, err := parseSince(q.Get("since"))
	if err != nil {
		return err
	}
	sub, cur, err := s.hub.subscribe(r.Context())
	if err != nil {
		return err
	}
	defer s.hub.unsubscribe(sub)
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return nil // Accept has answered the client already
	}
	defer conn.CloseNow()
	ctx := conn.CloseRead(r.Context()) // we only write; this reads pings and the close
	ctx, done := s.trackStream(ctx, p.ID)
	defer done()

	st := stream{conn: conn, last: cur}
	if q.Has("since") {
		if err := s.catchUp(ctx, &st, since, cur); err != nil {
			return nil
		}
	}
	ping := time.NewTicker(s.opts.PingEvery)
	defer ping.Stop()
	for {
		select {
		case ev := <-sub.ch:
			if err := st.sendEncoded(ctx, ev); err != nil {
				return nil
			}
		case <-sub.dropped:
			if s.ctx.Err() != nil {
				conn.Close(websocket.StatusGoingAway, "server shutting down")
				return nil
			}
			_ = st.resync(ctx) // best effort; the close says it too
			conn.Close(websocket.StatusTryAgainLater, "too slow; resync")
			return nil
		case <-ping.C:
			if s.revoked(ctx, p) {
				conn.Close(websocket.StatusPolicyViolation, "token revoked")
				return nil
			}
			pctx, cancel := context.WithTimeout(ctx, s.pingTimeout())
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return nil
			}
			// A PC that only listens is still there: its last-seen time
			// says so, and its device alerts are not taken for a PC gone.
			s.touch(p.ID)
		case <-ctx.Done():
			if context.Cause(ctx) == errRevoked {
				conn.Close(websocket.StatusPolicyViolation, "token revoked")
			}
			return nil
		}
	}
}

var errRevoked = errors.New("token revoked")

// trackStream registers a terminal's live stream so that revoking the
// terminal through this server ends it at once; done unregisters it.
func (s *Server) trackStream(ctx context.Context, terminal int64) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	key := &cancel
	s.streamsMu.Lock()
	if s.streams[terminal] == nil {
		s.streams[terminal] = map[*context.CancelCauseFunc]bool{}
	}
	s.streams[terminal][key] = true
	s.streamsMu.Unlock()
	return ctx, func() {
		s.streamsMu.Lock()
		delete(s.streams[terminal], key)
		if len(s.streams[terminal]) == 0 {
			delete(s.streams, terminal)
		}
		s.streamsMu.Unlock()
		cancel(nil)
	}
}

// endStreams ends every live stream of a revoked terminal. Revocations
// made elsewhere (the command line) are caught at the next ping.
func (s *Server) endStreams(terminal int64) {
	s.streamsMu.Lock()
	defer s.streamsMu.Unlock()
	for cancel := range s.streams[terminal] {
		(*cancel)(errRevoked)
	}
}

// revoked reports whether the token behind a live stream was revoked since
// it connected: a stolen PC must not go on watching the queue. A database
// that cannot answer right now is not a revocation.
func (s *Server) revoked(ctx context.Context, p principal) bool {
	ctx, cancel := context.WithTimeout(ctx, s.opts.RequestTimeout)
	defer cancel()
	_, err := s.terms.TerminalByTokenHash(ctx, p.TokenHash)
	c := model.ErrorCode(err)
	if c == model.EUnauthorized || c == model.ENotFound {
		s.known.revoke(p.ID)
		return true
	}
	return false
}

// catchUp sends the logged events after since, up to at least cur, or a
// resync when that is impossible.
func (s *Server) catchUp(ctx context.Context, st *stream, since, cur int64) error {
	switch {
	case since > cur:
		// The hub may merely lag behind a commit the client already saw.
		evs, err := s.store.EventsSince(ctx, since-1, 1)
		if err != nil || len(evs) == 0 || evs[0].Version != since {
			return st.resync(ctx)
		}
		st.last = since
		return nil
	case cur-since > int64(s.opts.MaxBackfill):
		return st.resync(ctx)
	}
	st.last = since
	for st.last < cur {
		evs, err := s.store.EventsSince(ctx, st.last, 500)
		if err != nil || len(evs) == 0 || evs[0].Version != st.last+1 {
			st.last = cur // archived or unreadable: start over from a snapshot
			return st.resync(ctx)
		}
		for _, ev := range evs {
			if err := st.send(ctx, ev); err != nil {
				return err
			}
		}
	}
	return nil
}

// stream writes one subscriber's messages, never the same version twice
// and never with a hole.
type stream struct {
	conn *websocket.Conn
	last int64
}

// sendEncoded sends a hub event in its ready-made wire form.
func (st *stream) sendEncoded(ctx context.Context, ev encoded) error {
	if ev.Version != st.last+1 {
		return st.send(ctx, ev.Event) // skip or resync, as send decides
	}
	if err := st.writeRaw(ctx, ev.wire); err != nil {
		return err
	}
	st.last = ev.Version
	return nil
}

func (st *stream) send(ctx context.Context, ev model.Event) error {
	if ev.Version <= st.last {
		return nil
	}
	if ev.Version != st.last+1 {
		return st.resyncAt(ctx, ev.Version-1, ev)
	}
	if err := st.write(ctx, message{Type: msgEvent, Event: ev}); err != nil {
		return err
	}
	st.last = ev.Version
	return nil
}

func (st *stream) resync(ctx context.Context) error {
	return st.write(ctx, message{Type: msgResync, Event: model.Event{Kind: model.EvResync, Version: st.last}})
}

// resyncAt tells the client to reload, then goes on with ev.
func (st *stream) resyncAt(ctx context.Context, at int64, ev model.Event) error {
	st.last = at
	if err := st.resync(ctx); err != nil {
		return err
	}
	return st.send(ctx, ev)
}

func (st *stream) write(ctx context.Context, m message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return st.writeRaw(ctx, b)
}

func (st *stream) writeRaw(ctx context.Context, b []byte) error {
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return st.conn.Write(wctx, websocket.MessageText, b)
}
