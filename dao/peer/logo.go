package peer

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"

	"jiaohao/model"
)

// The branch logo over the peer API: the PCs read it after each reload to
// draw it in their headers; the manager sets it. It travels as base64 in
// JSON like every other body, under its own size bound: a logo is larger
// than the 64 KiB every other request may carry.

// logoBody is the logo on the wire; Data empty is no logo.
type logoBody struct {
	Data []byte `json:"data"`
}

// maxLogoBody bounds a logo request: the largest logo in base64 and the
// JSON around it.
var maxLogoBody = int64(base64.StdEncoding.EncodedLen(model.MaxLogoBytes) + 64)

func (s *Server) branchLogo() (model.BranchLogo, error) {
	l, ok := s.store.(model.BranchLogo)
	if !ok {
		return nil, model.Errorf(model.EUnavailable, "此网点服务器不保存标志 (this branch server keeps no logo)")
	}
	return l, nil
}

func (s *Server) getLogo(w http.ResponseWriter, r *http.Request, _ principal) error {
	l, err := s.branchLogo()
	if err != nil {
		return err
	}
	data, err := l.Logo(r.Context())
	return answer(w, logoBody{Data: data}, err)
}

func (s *Server) setLogo(w http.ResponseWriter, r *http.Request, _ principal) error {
	l, err := s.branchLogo()
	if err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxLogoBody+1))
	if err != nil {
		return invalid("请求内容读取失败 (could not read the request body)")
	}
	if int64(len(body)) > maxLogoBody {
		return invalid("标志图片超过 %d KB，设置未更改 (the logo is over %d KB; nothing changed)", model.MaxLogoBytes>>10, model.MaxLogoBytes>>10)
	}
	var q logoBody
	if err := decodeStrict(body, &q, false); err != nil {
		return err
	}
	if err := l.SetLogo(r.Context(), q.Data); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]int{"bytes": len(q.Data)})
	return nil
}

var _ model.BranchLogo = (*Client)(nil)

// Logo is the branch logo from the host, nil when none is set.
func (c *Client) Logo(ctx context.Context) ([]byte, error) {
	var b logoBody
	if err := c.do(ctx, http.MethodGet, "/api/v1/logo", nil, &b); err != nil {
		return nil, err
	}
	if len(b.Data) == 0 {
		return nil, nil
	}
	return b.Data, nil
}

// SetLogo sends the manager's logo (nil removes it); the host checks it.
func (c *Client) SetLogo(ctx context.Context, data []byte) error {
	return c.do(ctx, http.MethodPut, "/api/v1/logo", logoBody{Data: data}, nil)
}
