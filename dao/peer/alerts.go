package peer

import (
	"context"
	"net/http"
	"strconv"

	"jiaohao/model"
)

// The manager acknowledges alerts on the host: POST
// /api/v1/alerts/{id}/ack answers the alert as acknowledged (who, when);
// other roles get 403, an unknown alert 404, a second acknowledgement 409.

func (s *Server) ackAlert(w http.ResponseWriter, r *http.Request, _ principal) error {
	id, err := parseDigits(r.PathValue("id"), 18)
	if err != nil || id < 1 {
		return invalid("告警编号须为正整数 (alert id must be a positive integer)")
	}
	a, err := s.store.AckAlert(r.Context(), id)
	return answer(w, a, err)
}

var _ model.Alerts = (*Client)(nil)

// AckAlert has the host record this manager's acknowledgement.
func (c *Client) AckAlert(ctx context.Context, id int64) (model.Alert, error) {
	var a model.Alert
	return a, c.do(ctx, http.MethodPost, "/api/v1/alerts/"+strconv.FormatInt(id, 10)+"/ack", nil, &a)
}
