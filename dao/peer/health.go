package peer

import (
	"context"
	"net/http"
	"time"

	"jiaohao/model"
)

// The daily health check on the host, for a manager PC: the last check
// (the morning look) and a check now, which rewrites the day's files in
// the host's folder. Both are the manager's: other roles get 403.

var _ model.HealthDesk = (*Client)(nil)

type healthRequest struct {
	Date string `json:"date"` // YYYY-MM-DD; "" is today's business date
}

func (q healthRequest) validate() error {
	if q.Date != "" && !reportDate.MatchString(q.Date) {
		return invalid("日期须为 YYYY-MM-DD (date must be YYYY-MM-DD)")
	}
	return nil
}

func (s *Server) healthDesk() (model.HealthDesk, error) {
	if s.opts.Health == nil {
		return nil, model.Errorf(model.EUnavailable, "这台网点服务器不做健康检查 (this branch server does not run the health check)")
	}
	return s.opts.Health, nil
}

func (s *Server) lastHealth(w http.ResponseWriter, r *http.Request, _ principal) error {
	h, err := s.healthDesk()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.RequestTimeout) // the route shares the report's own bound
	defer cancel()
	c, err := h.LastHealthCheck(ctx)
	return answer(w, c, err)
}

func (s *Server) runHealth(w http.ResponseWriter, r *http.Request, _ principal) error {
	h, err := s.healthDesk()
	if err != nil {
		return err
	}
	q, err := decode[healthRequest](r, true)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), ReportTimeout)
	defer cancel()
	c, err := h.RunHealthCheck(ctx, q.Date)
	return answer(w, c, err)
}

// LastHealthCheck asks the host for the last daily health check.
func (c *Client) LastHealthCheck(ctx context.Context) (model.HealthCheck, error) {
	var out model.HealthCheck
	return out, c.do(ctx, http.MethodGet, "/api/v1/healthcheck", nil, &out)
}

// RunHealthCheck has the host check date now and rewrite its files there.
func (c *Client) RunHealthCheck(ctx context.Context, date string) (model.HealthCheck, error) {
	var out model.HealthCheck
	return out, c.doWithin(ctx, ReportTimeout+30*time.Second, http.MethodPost, "/api/v1/healthcheck", healthRequest{Date: date}, &out)
}
