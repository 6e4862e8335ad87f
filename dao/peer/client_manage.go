package peer

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"jiaohao/model"
)

// A manager PC that connects through the peer server manages terminals
// and makes reports on the host.

var _ model.TerminalAdmin = (*Client)(nil)

// AddTerminal registers a PC by its token's hash; the token itself never
// leaves this PC.
func (c *Client) AddTerminal(ctx context.Context, t model.Terminal) (model.Terminal, error) {
	var out model.Terminal
	in := terminalRequest{Name: t.Name, Role: t.Role, Window: t.Window, TokenHash: t.TokenHash}
	return out, c.do(ctx, http.MethodPost, "/api/v1/terminals", in, &out)
}

func (c *Client) Terminals(ctx context.Context) ([]model.Terminal, error) {
	var ts []model.Terminal
	return ts, c.do(ctx, http.MethodGet, "/api/v1/terminals", nil, &ts)
}

func (c *Client) RevokeTerminal(ctx context.Context, id int64) error {
	return c.do(ctx, http.MethodDelete, "/api/v1/terminals/"+strconv.FormatInt(id, 10), nil, nil)
}

// Report has the host render the report of the days from..to in lang.
func (c *Client) Report(ctx context.Context, from, to, lang string) (Report, error) {
	var r Report
	q := url.Values{"from": {from}, "to": {to}, "lang": {lang}}
	// A little longer than the host allows, so a slow report ends with the
	// host's answer, not with "unreachable".
	return r, c.doWithin(ctx, ReportTimeout+30*time.Second, http.MethodGet, "/api/v1/reports?"+q.Encode(), nil, &r)
}
