package peer

import (
	"context"
	"mime"
	"net/http"
	"net/url"
	"strconv"

	"jiaohao/model"
)

// Customers' ratings over the peer API (model.Ratings). The rating pad
// (evaluator) rates what its own window finished; the customer's phone
// page rates its own ticket by the public id, with no token, as the page
// itself needs none. Both bodies are strict like every other.

type (
	rateRequest struct {
		TicketID int64    `json:"ticket_id"`
		Score    int      `json:"score"`
		Tags     []string `json:"tags,omitempty"`
		Comment  string   `json:"comment,omitempty"`
	}
	// pageRateRequest is the phone page's: its ticket is the page's own.
	pageRateRequest struct {
		Score   int      `json:"score"`
		Tags    []string `json:"tags,omitempty"`
		Comment string   `json:"comment,omitempty"`
	}
)

func (q rateRequest) input() model.RatingInput {
	return model.RatingInput{Score: model.Score(q.Score), Tags: q.Tags, Comment: q.Comment}
}

func (q rateRequest) validate() error {
	if q.TicketID < 1 {
		return invalid("号码编号须为正整数 (ticket id must be a positive integer)")
	}
	_, err := q.input().Check()
	return err
}

func (q pageRateRequest) input() model.RatingInput {
	return model.RatingInput{Score: model.Score(q.Score), Tags: q.Tags, Comment: q.Comment}
}

func (q pageRateRequest) validate() error { _, err := q.input().Check(); return err }

func (s *Server) ratingRoutes() []route {
	return []route{
		{"POST", "/api/v1/windows/{n}/rating", model.PermRate, s.rate},
		{"GET", "/api/v1/windows/{n}/satisfaction", observers, s.windowSatisfaction}, // the window's own roles and the manager
		{"GET", "/api/v1/satisfaction", observers, s.satisfaction},
		{"GET", "/api/v1/tickets/{id}/rating", model.PermRatings, s.ratingOf},
	}
}

func (s *Server) ratings() (model.Ratings, error) {
	v, ok := s.store.(model.Ratings)
	if !ok {
		return nil, model.Errorf(model.EUnavailable, "此网点服务器不保存评价 (this branch server keeps no ratings)")
	}
	return v, nil
}

func (s *Server) rate(w http.ResponseWriter, r *http.Request, p principal) error {
	n, err := pathWindow(r, p)
	if err != nil {
		return err
	}
	q, err := decode[rateRequest](r, false)
	if err != nil {
		return err
	}
	rs, err := s.ratings()
	if err != nil {
		return err
	}
	out, err := rs.Rate(r.Context(), q.TicketID, n, q.input())
	return answer(w, out, err)
}

func (s *Server) windowSatisfaction(w http.ResponseWriter, r *http.Request, p principal) error {
	n, err := pathWindow(r, p)
	if err != nil {
		return err
	}
	return s.answerSatisfaction(w, r, n)
}

func (s *Server) satisfaction(w http.ResponseWriter, r *http.Request, _ principal) error {
	return s.answerSatisfaction(w, r, 0)
}

func (s *Server) answerSatisfaction(w http.ResponseWriter, r *http.Request, window int) error {
	rs, err := s.ratings()
	if err != nil {
		return err
	}
	m, err := rs.SatisfactionToday(r.Context(), window)
	return answer(w, m, err)
}

// ratingOf is GET /api/v1/tickets/{id}/rating. A rating holds the
// customer's own words, so the manager reads any and the rating pad the
// ones of its window's finishes; to a pad asking of another window it is
// not found, like a ticket nobody rated, so ratings cannot be probed.
func (s *Server) ratingOf(w http.ResponseWriter, r *http.Request, p principal) error {
	manager := p.may(model.PermManage)
	id, err := parseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	rs, err := s.ratings()
	if err != nil {
		return err
	}
	out, err := rs.RatingOf(r.Context(), id)
	if err == nil && !manager && out.Window != p.Window {
		err = model.Errorf(model.ENotFound, "这个号码还没有评价 (this ticket has no rating)")
	}
	return answer(w, out, err)
}

// pageRating is POST /t/{pid}/rating, the phone page rating its ticket.
// The public id is the customer's key, as for the page; a browser on
// another site's page is refused, and so is any body but JSON, which a
// cross-site form cannot send without the host's consent. The answer
// names the score only: the page shows nothing about the clerk.
func (s *Server) pageRating(w http.ResponseWriter, r *http.Request) {
	if err := s.pageRatingErr(w, r); err != nil {
		writeError(w, err)
	}
}

func (s *Server) pageRatingErr(w http.ResponseWriter, r *http.Request) error {
	if err := sameOrigin(r); err != nil {
		return err
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return invalid("评价须以 JSON 提交 (a rating is sent as JSON)")
	}
	pid := r.PathValue("pid")
	if !validPublicID(pid) {
		return model.Errorf(model.ENotFound, "没有这个号码 (no such ticket)")
	}
	q, err := decode[pageRateRequest](r, false)
	if err != nil {
		return err
	}
	rs, err := s.ratings()
	if err != nil {
		return err
	}
	out, err := rs.RateByPublicID(r.Context(), pid, q.input())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, pageRateRequest{Score: int(out.Score), Tags: out.Tags, Comment: out.Comment})
	return nil
}

// pageRated is the score the page's ticket was given, 0 while none (or
// from a store that keeps no ratings).
func (s *Server) pageRated(ctx context.Context, id int64) int {
	rs, err := s.ratings()
	if err != nil {
		return 0
	}
	if r, err := rs.RatingOf(ctx, id); err == nil {
		return int(r.Score)
	}
	return 0
}

var _ model.Ratings = (*Client)(nil)

// Rate records the pad's rating through the host.
func (c *Client) Rate(ctx context.Context, id int64, window int, in model.RatingInput) (model.Rating, error) {
	var out model.Rating
	q := rateRequest{TicketID: id, Score: int(in.Score), Tags: in.Tags, Comment: in.Comment}
	return out, c.do(ctx, http.MethodPost, windowPath(window)+"/rating", q, &out)
}

// RateByPublicID rates as the customer's page does. The host answers the
// score only, so the rating returned has no window, clerk or time.
func (c *Client) RateByPublicID(ctx context.Context, publicID string, in model.RatingInput) (model.Rating, error) {
	var got pageRateRequest
	q := pageRateRequest{Score: int(in.Score), Tags: in.Tags, Comment: in.Comment}
	err := c.do(ctx, http.MethodPost, "/t/"+url.PathEscape(publicID)+"/rating", q, &got)
	return model.Rating{Score: model.Score(got.Score), Tags: got.Tags, Comment: got.Comment}, err
}

// RatingOf is a ticket's rating.
func (c *Client) RatingOf(ctx context.Context, id int64) (model.Rating, error) {
	var out model.Rating
	return out, c.do(ctx, http.MethodGet, "/api/v1/tickets/"+strconv.FormatInt(id, 10)+"/rating", nil, &out)
}

// SatisfactionToday is today's count of the branch (0) or of the clerk
// at window.
func (c *Client) SatisfactionToday(ctx context.Context, window int) (model.Satisfaction, error) {
	var out model.Satisfaction
	path := "/api/v1/satisfaction"
	if window > 0 {
		path = windowPath(window) + "/satisfaction"
	}
	return out, c.do(ctx, http.MethodGet, path, nil, &out)
}
