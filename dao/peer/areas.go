package peer

import (
	"context"
	"net/http"
	"strconv"

	"jiaohao/model"
)

// The waiting areas over the peer API: every role reads them (the
// snapshot carries them too), the manager adds, renames and deletes.

// areaRequest is an area's name and place, strict like every body.
type areaRequest struct {
	Name  string `json:"name"`
	Where string `json:"where"`
}

func (q areaRequest) validate() error {
	_, err := model.CheckArea(model.Area{Name: q.Name, Where: q.Where})
	return err
}

func (s *Server) branchAreas() (model.Areas, error) {
	a, ok := s.store.(model.Areas)
	if !ok {
		return nil, model.Errorf(model.EUnavailable, "此网点服务器不管理等候区 (this branch server keeps no waiting areas)")
	}
	return a, nil
}

func areaID(r *http.Request) (int64, error) {
	id, err := parseDigits(r.PathValue("id"), 18)
	if err != nil || id < 1 {
		return 0, invalid("等候区编号须为正整数 (area id must be a positive integer)")
	}
	return id, nil
}

func (s *Server) areas(w http.ResponseWriter, r *http.Request, _ principal) error {
	a, err := s.branchAreas()
	if err != nil {
		return err
	}
	out, err := a.Areas(r.Context())
	return answer(w, out, err)
}

// saveArea adds an area (POST, no id) or renames one (PUT /{id}).
func (s *Server) saveArea(w http.ResponseWriter, r *http.Request, _ principal) error {
	a, err := s.branchAreas()
	if err != nil {
		return err
	}
	var id int64
	if r.Method == http.MethodPut {
		if id, err = areaID(r); err != nil {
			return err
		}
	}
	q, err := decode[areaRequest](r, false)
	if err != nil {
		return err
	}
	saved, err := a.SaveArea(r.Context(), model.Area{ID: id, Name: q.Name, Where: q.Where})
	return answer(w, saved, err)
}

func (s *Server) deleteArea(w http.ResponseWriter, r *http.Request, _ principal) error {
	a, err := s.branchAreas()
	if err != nil {
		return err
	}
	id, err := areaID(r)
	if err != nil {
		return err
	}
	if err := a.DeleteArea(r.Context(), id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]int64{"deleted": id})
	return nil
}

var _ model.Areas = (*Client)(nil)

// Areas lists the branch's areas from the host.
func (c *Client) Areas(ctx context.Context) ([]model.Area, error) {
	var out []model.Area
	return out, c.do(ctx, http.MethodGet, "/api/v1/areas", nil, &out)
}

// SaveArea adds (ID 0) or renames an area on the host.
func (c *Client) SaveArea(ctx context.Context, a model.Area) (model.Area, error) {
	method, path := http.MethodPost, "/api/v1/areas"
	if a.ID != 0 {
		method, path = http.MethodPut, "/api/v1/areas/"+strconv.FormatInt(a.ID, 10)
	}
	var out model.Area
	return out, c.do(ctx, method, path, areaRequest{Name: a.Name, Where: a.Where}, &out)
}

// DeleteArea asks the host to delete an empty area.
func (c *Client) DeleteArea(ctx context.Context, id int64) error {
	return c.do(ctx, http.MethodDelete, "/api/v1/areas/"+strconv.FormatInt(id, 10), nil, nil)
}
