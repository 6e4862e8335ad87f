package peer

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"jiaohao/model"
)

// hqMessage is one WebSocket message of /api/v1/hq/live: "full" carries
// every branch's line, replacing what the PC shows (the first message of
// each connection); "lines" the branches whose line changed. Longest
// waits are as of the moment the message is sent: the PC grows them by
// the time since it received them until the next message.
type hqMessage struct {
	Type  string                 `json:"type"`
	Lines []model.BranchOverview `json:"lines"`
}

const (
	hqFull  = "full"
	hqLines = "lines"
)

// live is GET /api/v1/hq/live: the shared overview feed, one message per
// change of any branch's line (at most one per branch per Debounce).
func (h *headOffice) live(w http.ResponseWriter, r *http.Request, p principal) error {
	sub, lines, err := h.feed.subscribe(r.Context())
	if err != nil {
		return err
	}
	defer h.feed.unsubscribe(sub)
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return nil // Accept has answered the client already
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 10)
	ctx := conn.CloseRead(r.Context())
	st := stream{conn: conn}
	if writeHQ(ctx, st, hqMessage{Type: hqFull, Lines: lines}) != nil {
		return nil
	}
	opts := h.b.home.opts
	ping := time.NewTicker(opts.PingEvery)
	defer ping.Stop()
	for {
		select {
		case <-sub.wake:
			if ls := sub.take(); len(ls) > 0 && writeHQ(ctx, st, hqMessage{Type: hqLines, Lines: ls}) != nil {
				return nil
			}
		case <-sub.done:
			conn.Close(websocket.StatusGoingAway, "server shutting down")
			return nil
		case <-ping.C:
			if h.revoked(ctx, p) {
				conn.Close(websocket.StatusPolicyViolation, "token revoked")
				return nil
			}
			pctx, cancel := context.WithTimeout(ctx, max(opts.PingEvery, pongFloor))
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return nil
			}
			h.touch(p.ID)
		case <-ctx.Done():
			return nil
		}
	}
}

// revoked reports whether a head-office PC's token was revoked since it
// connected (revocations are made on the command line, so the ping finds
// them); a database that cannot answer now is not a revocation.
func (h *headOffice) revoked(ctx context.Context, p principal) bool {
	ctx, cancel := context.WithTimeout(ctx, h.b.home.opts.RequestTimeout)
	defer cancel()
	_, err := h.opts.Terminals.TerminalByTokenHash(ctx, p.TokenHash)
	c := model.ErrorCode(err)
	return c == model.EUnauthorized || c == model.ENotFound
}

func writeHQ(ctx context.Context, st stream, m hqMessage) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return st.writeRaw(ctx, b)
}
