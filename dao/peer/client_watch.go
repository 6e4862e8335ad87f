package peer

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"jiaohao/model"
)

// Watch streams the server's events with version > since over a WebSocket.
// When the connection breaks it reconnects with backoff and jitter (at most
// 5 s apart) and then sends a model.EvResync event: the caller reloads the
// Snapshot and applies only events newer than it. The channel closes when
// ctx ends or the client is closed. A rejected token fails at once; an
// unreachable server does not: the watch keeps trying.
func (c *Client) Watch(ctx context.Context, since int64) (<-chan model.Event, error) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(c.ctx, cancel)
	conn, err := c.dialEvents(ctx, since)
	if err != nil && !IsUnreachable(err) {
		stop()
		cancel()
		return nil, err
	}
	out := make(chan model.Event, 64)
	go func() {
		defer close(out)
		defer stop()
		defer cancel()
		c.watchLoop(ctx, conn, since, out)
	}()
	return out, nil
}

func (c *Client) watchLoop(ctx context.Context, conn *websocket.Conn, last int64, out chan<- model.Event) {
	resync := conn == nil // the first connection failed: the caller must reload once we are back
	for attempt := 0; ctx.Err() == nil; {
		if conn == nil {
			var err error
			if conn, err = c.dialEvents(ctx, last); err != nil {
				select {
				case <-ctx.Done():
					return
				case <-time.After(backoff(attempt)):
				}
				attempt++
				continue
			}
		}
		attempt = 0
		if resync && !emit(ctx, out, model.Event{Kind: model.EvResync, Version: last}) {
			conn.CloseNow()
			return
		}
		c.readEvents(ctx, conn, &last, out)
		conn.CloseNow()
		conn, resync = nil, true
	}
}

// dialEvents opens /api/v1/events?since=V.
func (c *Client) dialEvents(ctx context.Context, since int64) (*websocket.Conn, error) {
	return c.dialWS(ctx, "/api/v1/events", "since="+strconv.FormatInt(max(since, 0), 10))
}

// dialWS opens one of the server's WebSocket streams with the token. A
// refusal (401, 403, 404) is the server's error; anything else, a server
// not up or not answering, is unreachable.
func (c *Client) dialWS(ctx context.Context, path, query string) (*websocket.Conn, error) {
	u := *c.base
	u.Scheme = map[string]string{"http": "ws", "https": "wss"}[u.Scheme]
	u.Path += path
	u.RawQuery = query
	dctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	hc := *c.hc
	hc.Timeout = 0 // the dial context bounds the handshake; the stream lives on
	conn, resp, err := websocket.Dial(dctx, u.String(), &websocket.DialOptions{
		HTTPClient: &hc,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + c.token}},
	})
	if err != nil {
		if resp != nil && resp.StatusCode >= 400 && resp.StatusCode != http.StatusServiceUnavailable {
			// The refusal's own sentence (the library keeps its first KiB).
			var body []byte
			if resp.Body != nil {
				body, _ = io.ReadAll(io.LimitReader(resp.Body, 1024))
			}
			return nil, decodeError(resp.StatusCode, body)
		}
		return nil, errUnreachable
	}
	conn.SetReadLimit(1 << 20)
	return conn, nil
}

// keepAlive pings conn every 15 s until ctx ends, closing it when a pong
// does not come: a dead link would otherwise block its read forever.
func keepAlive(ctx context.Context, conn *websocket.Conn) {
	t := time.NewTicker(15 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pctx, pcancel := context.WithTimeout(ctx, 10*time.Second)
			err := conn.Ping(pctx)
			pcancel()
			if err != nil {
				conn.CloseNow()
				return
			}
		}
	}
}

// readEvents forwards messages until the connection fails.
func (c *Client) readEvents(ctx context.Context, conn *websocket.Conn, last *int64, out chan<- model.Event) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go keepAlive(ctx, conn)
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return
		}
		var m message
		if json.Unmarshal(data, &m) != nil {
			return // not our protocol: reconnect and resync
		}
		ev := m.Event
		switch {
		case m.Type == msgResync:
			ev = model.Event{Kind: model.EvResync, Version: m.Version}
		case ev.Version <= *last:
			continue
		}
		if !emit(ctx, out, ev) {
			return
		}
		*last = ev.Version
	}
}

// emit hands v to out unless ctx ends first.
func emit[T any](ctx context.Context, out chan<- T, v T) bool {
	select {
	case out <- v:
		return true
	case <-ctx.Done():
		return false
	}
}
