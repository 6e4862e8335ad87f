package peer

import (
	"context"
	"net/http"

	"jiaohao/model"
)

// branchRequest renames the branch and sets its time zone (manager only).
type branchRequest struct {
	Name     string `json:"name"`
	TimeZone string `json:"time_zone"`
}

func (q branchRequest) validate() error { return model.CheckBranch(q.Name, q.TimeZone) }

func (s *Server) setBranch(w http.ResponseWriter, r *http.Request, _ principal) error {
	q, err := decode[branchRequest](r, false)
	if err != nil {
		return err
	}
	if err := s.store.SetBranch(r.Context(), q.Name, q.TimeZone); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, q)
	return nil
}

// SetBranch renames the branch and sets its time zone on the host.
func (c *Client) SetBranch(ctx context.Context, name, zone string) error {
	return c.do(ctx, http.MethodPut, "/api/v1/branch", branchRequest{Name: name, TimeZone: zone}, nil)
}
