package peer

import (
	"context"
	"net/http"

	"jiaohao/model"
)

// nextPositions answers GET /api/v1/positions/next: where a number taken
// now would stand in each service, for the kiosk's tiles.
func (s *Server) nextPositions(w http.ResponseWriter, r *http.Request, _ principal) error {
	np, ok := s.store.(model.NextPositions)
	if !ok {
		return model.Errorf(model.ENotFound, "这台网点服务器不提供取号前的预计等待 (this branch server gives no estimate before a take)")
	}
	out, err := np.NextPositions(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// NextPositions asks the host where a number taken now would stand in
// each enabled service.
func (c *Client) NextPositions(ctx context.Context) (map[string]model.Position, error) {
	var out map[string]model.Position
	return out, c.do(ctx, http.MethodGet, "/api/v1/positions/next", nil, &out)
}
