package peer

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"jiaohao/model"
)

var _ model.HeadOffice = (*Client)(nil)

// DialHQ connects head office's PC to a host serving every branch (serve
// --branch all) with its hq token, and checks both by reading the
// overview once.
func DialHQ(ctx context.Context, rawURL, token string, hc *http.Client) (*Client, error) {
	c, err := NewClient(rawURL, token, hc)
	if err != nil {
		return nil, err
	}
	if _, err := c.Overview(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Overview is every branch's line now, trouble first, and the totals.
func (c *Client) Overview(ctx context.Context) (HQOverview, error) {
	var o HQOverview
	err := c.do(ctx, http.MethodGet, "/api/v1/hq/overview", nil, &o)
	return o, noHeadOffice(err)
}

// noHeadOffice says what a 404 on head office's routes means: the host
// serves one branch, and has none of them. Set up with a one-branch
// host's address, head office's PC would otherwise only say "no such
// path".
func noHeadOffice(err error) error {
	if model.IsCode(err, model.ENotFound) {
		return model.Errorf(model.ENotFound, "这台主机只服务一个网点，没有总部总览；请在总部主机上运行 jiaohao serve --branch all (this host serves one branch and has no head-office overview: run jiaohao serve --branch all on head office's host)")
	}
	return err
}

// WatchOverview follows head office's live overview. The first update is
// Full; when the link breaks one with Down says so, and after reconnecting
// (with backoff, at most 5 s apart) the next is Full again. A rejected
// token fails at once; an unreachable host does not: the watch starts Down
// and keeps trying. The channel closes when ctx ends, the client closes,
// or the host refuses the token on reconnecting (it was revoked).
func (c *Client) WatchOverview(ctx context.Context) (<-chan model.OverviewUpdate, error) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(c.ctx, cancel)
	conn, err := c.dialWS(ctx, "/api/v1/hq/live", "")
	if err != nil && !IsUnreachable(err) {
		stop()
		cancel()
		return nil, noHeadOffice(err)
	}
	out := make(chan model.OverviewUpdate, 16)
	go func() {
		defer close(out)
		defer stop()
		defer cancel()
		c.overviewLoop(ctx, conn, out)
	}()
	return out, nil
}

func (c *Client) overviewLoop(ctx context.Context, conn *websocket.Conn, out chan<- model.OverviewUpdate) {
	down := conn == nil
	for attempt := 0; ctx.Err() == nil; {
		if down && !emit(ctx, out, model.OverviewUpdate{Down: true}) {
			break
		}
		if conn == nil {
			var err error
			if conn, err = c.dialWS(ctx, "/api/v1/hq/live", ""); err != nil {
				if !IsUnreachable(err) {
					return // refused now (revoked): the caller's next watch says why
				}
				down = false // said once; say it again only after being up
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
		c.readOverview(ctx, conn, out)
		conn.CloseNow()
		conn, down = nil, true
	}
	if conn != nil {
		conn.CloseNow()
	}
}

// readOverview forwards the stream's messages until the connection fails.
func (c *Client) readOverview(ctx context.Context, conn *websocket.Conn, out chan<- model.OverviewUpdate) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go keepAlive(ctx, conn)
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return
		}
		var m hqMessage
		if json.Unmarshal(data, &m) != nil || (m.Type != hqFull && m.Type != hqLines) {
			return // not our protocol: reconnect, which starts with a full message
		}
		if !emit(ctx, out, model.OverviewUpdate{Full: m.Type == hqFull, Lines: m.Lines}) {
			return
		}
	}
}
