package peer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"jiaohao/model"
)

// Client is a model.Store backed by a peer server: screens and kiosks use it
// exactly as they use a database. While the server cannot be reached every
// call fails with model.EUnavailable; nothing is ever made up locally.
type Client struct {
	base  *url.URL
	token string
	hc    *http.Client

	mu     sync.Mutex
	engine string
	taken  takenAnswer // where the last number this PC took stood, for its slip

	ctx    context.Context // ends on Close, stopping every Watch
	cancel context.CancelFunc
}

var _ model.Store = (*Client)(nil)

// Dial connects to the peer server at rawURL (http:// or https://) with a
// terminal token, and checks both by asking who the token belongs to.
func Dial(ctx context.Context, rawURL, token string) (*Client, error) {
	return DialWith(ctx, rawURL, token, nil)
}

// DialWith is Dial over hc, which may carry TLS settings (PinnedClient);
// nil uses a default client.
func DialWith(ctx context.Context, rawURL, token string, hc *http.Client) (*Client, error) {
	c, err := NewClient(rawURL, token, hc)
	if err != nil {
		return nil, err
	}
	if _, err := c.Whoami(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// NewClient makes a client without contacting the server, for a terminal
// that must start while the server is still down. hc may carry TLS
// settings; nil uses a default client.
func NewClient(rawURL, token string, hc *http.Client) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(rawURL), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, model.Errorf(model.EInvalidInput, "网点服务器地址应形如 http://主机:8520 (server address must look like http://host:8520)")
	}
	if token == "" || strings.ContainsAny(token, " \r\n\t") {
		return nil, model.Errorf(model.EInvalidInput, "终端令牌无效 (terminal token is empty or malformed)")
	}
	if hc == nil {
		hc = &http.Client{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Client{base: u, token: token, hc: hc, ctx: ctx, cancel: cancel}, nil
}

// callTimeout bounds one request so that an unplugged cable turns into
// "unreachable" quickly instead of a frozen kiosk.
const callTimeout = 10 * time.Second

// do sends one request and decodes the answer into out (if not nil).
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	return c.doWithin(ctx, callTimeout, method, path, in, out)
}

// doWithin is do with its own bound, for the few requests that are meant
// to take long (a month's report).
func (c *Client) doWithin(ctx context.Context, timeout time.Duration, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("peer client: encode request: %w", err)
		}
		body = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, body)
	if err != nil {
		return fmt.Errorf("peer client: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if errors.Is(err, errPinMismatch) {
			return errPinned
		}
		return c.transportError(ctx)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return c.transportError(ctx)
	}
	if resp.StatusCode >= 400 {
		return decodeError(resp.StatusCode, data)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return model.Errorf(model.EUnavailable, "网点服务器回答无法识别 (branch server sent an unreadable answer)")
	}
	return nil
}

// transportError is the caller's own cancellation, or unreachable.
func (c *Client) transportError(ctx context.Context) error {
	if err := context.Cause(ctx); err != nil && err != context.DeadlineExceeded {
		return err
	}
	return errUnreachable
}

func (c *Client) ticket(ctx context.Context, method, path string, in any) (model.Ticket, error) {
	var t model.Ticket
	err := c.do(ctx, method, path, in, &t)
	return t, err
}

func (c *Client) TakeTicket(ctx context.Context, service string, priority int, _ string) (model.Ticket, error) {
	return c.take(ctx, "/api/v1/tickets", takeRequest{Service: service, Priority: priority})
}

// takenAnswer is where a number stood when this PC took it, as the host
// answered the take: the slip's Position, asked at once, needs no second
// request and no second walk of the queue on the host.
type takenAnswer struct {
	id  int64
	pos model.Position
	at  time.Time
}

// takenFresh is how long a take's answer stands in for its position.
const takenFresh = 2 * time.Second

// take posts a take and keeps the answer's position for the slip.
func (c *Client) take(ctx context.Context, path string, in any) (model.Ticket, error) {
	var t Ticket
	if err := c.do(ctx, http.MethodPost, path, in, &t); err != nil {
		return model.Ticket{}, err
	}
	c.mu.Lock()
	c.taken = takenAnswer{id: t.ID, pos: model.Position{Ahead: t.Ahead, ETASeconds: t.ETASeconds, NoWindow: t.NoWindow}, at: time.Now()}
	c.mu.Unlock()
	return t.Ticket, nil
}

// takenPosition is the position of ticket id from its take's answer, once
// and only just after the take.
func (c *Client) takenPosition(id int64) (model.Position, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.taken
	if a.id != id || id == 0 || time.Since(a.at) > takenFresh {
		return model.Position{}, false
	}
	c.taken = takenAnswer{}
	return a.pos, true
}

func (c *Client) CallNext(ctx context.Context, window int, service string) (model.Ticket, error) {
	return c.ticket(ctx, http.MethodPost, "/api/v1/windows/"+strconv.Itoa(window)+"/call", callRequest{Service: service})
}

func (c *Client) action(ctx context.Context, id int64, window int, verb string) (model.Ticket, error) {
	return c.ticket(ctx, http.MethodPost, ticketPath(id)+"/"+verb, actionRequest{Window: window})
}

func ticketPath(id int64) string { return "/api/v1/tickets/" + strconv.FormatInt(id, 10) }

func (c *Client) Recall(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return c.action(ctx, id, window, "recall")
}

func (c *Client) Pass(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return c.action(ctx, id, window, "pass")
}

func (c *Client) UndoPass(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return c.action(ctx, id, window, "undo-pass")
}

func (c *Client) Requeue(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return c.action(ctx, id, window, "requeue")
}

func (c *Client) StartServing(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return c.action(ctx, id, window, "serve")
}

func (c *Client) Finish(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return c.action(ctx, id, window, "finish")
}

func (c *Client) Cancel(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return c.action(ctx, id, window, "cancel")
}

func (c *Client) Transfer(ctx context.Context, id int64, window int, to model.TransferTarget) (model.Ticket, error) {
	return c.ticket(ctx, http.MethodPost, ticketPath(id)+"/transfer",
		transferRequest{Window: to.Window, Service: to.Service, FromWindow: window})
}

func (c *Client) Ticket(ctx context.Context, id int64) (model.Ticket, error) {
	return c.ticket(ctx, http.MethodGet, ticketPath(id), nil)
}

func (c *Client) TicketByPublicID(ctx context.Context, publicID string) (model.Ticket, error) {
	return c.ticket(ctx, http.MethodGet, "/api/v1/public/"+url.PathEscape(publicID), nil)
}

func (c *Client) Position(ctx context.Context, id int64) (model.Position, error) {
	if p, ok := c.takenPosition(id); ok {
		return p, nil
	}
	var p model.Position
	return p, c.do(ctx, http.MethodGet, ticketPath(id)+"/position", nil, &p)
}
