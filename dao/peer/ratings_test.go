package peer

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// finished serves a new ticket of A to its end at window 1.
func finished(t *testing.T, st model.Store) model.Ticket {
	t.Helper()
	ctx := context.Background()
	tk, err := st.TakeTicket(ctx, "A", 0, "test")
	if err == nil {
		_, err = st.CallNext(ctx, 1, "A")
	}
	if err == nil {
		_, err = st.StartServing(ctx, tk.ID, 1)
	}
	if err == nil {
		tk, err = st.Finish(ctx, tk.ID, 1)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// postPage posts a rating to the phone page as a browser would.
func postPage(t *testing.T, e *env, pid, ctype, origin, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", e.ts.URL+"/t/"+pid+"/rating", strings.NewReader(body))
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The rating pad over the peer: it rates what its window finished, once,
// within the window; a second and a late rating are refused with their
// codes and sentences, on every engine behind the host.
func TestPeerPadRatesOnceInTime(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		e := newEnvOn(t, st, Options{TakePerMinute: -1})
		ctx := context.Background()
		pad := e.client(t, model.RoleEvaluator)
		waiting, err := st.TakeTicket(ctx, "B", 0, "test")
		if err != nil {
			t.Fatal(err)
		}
		done := finished(t, st)
		if _, err := pad.Rate(ctx, waiting.ID, 1, model.RatingInput{Score: 4}); model.ErrorCode(err) != model.ETicketNotDone {
			t.Fatalf("rating a waiting ticket: %v", err)
		}
		if _, err := pad.Rate(ctx, done.ID, 2, model.RatingInput{Score: 4}); model.ErrorCode(err) != model.EForbidden {
			t.Fatalf("the pad of window 1 rating for window 2: %v", err)
		}
		r, err := pad.Rate(ctx, done.ID, 1, model.RatingInput{Score: model.ScoreSatisfied, Tags: []string{"fast"}, Comment: "快"})
		if err != nil || r.TicketID != done.ID || r.Score != model.ScoreSatisfied || r.Window != 1 {
			t.Fatalf("rating: %+v, %v", r, err)
		}
		_, err = pad.Rate(ctx, done.ID, 1, model.RatingInput{Score: model.ScoreUnsatisfied})
		if model.ErrorCode(err) != model.EAlreadyRated || !strings.Contains(err.Error(), "只能评价一次") {
			t.Fatalf("second rating: %v", err)
		}
		late := finished(t, st)
		now, _ := st.Now(ctx)
		if err := st.DB().Exec("UPDATE ticket SET finished_at = ? WHERE id = ?", now.Add(-121*time.Second), late.ID).Error; err != nil {
			t.Fatal(err)
		}
		_, err = pad.Rate(ctx, late.ID, 1, model.RatingInput{Score: model.ScoreSatisfied})
		if model.ErrorCode(err) != model.ERatingExpired || !strings.Contains(err.Error(), "评价时间已过") {
			t.Fatalf("late rating: %v", err)
		}
		if got, err := pad.RatingOf(ctx, done.ID); err != nil || got.Score != model.ScoreSatisfied || got.Comment != "快" {
			t.Fatalf("rating of: %+v %v", got, err)
		}
		if m, err := pad.SatisfactionToday(ctx, 0); err != nil || m.Count() != 1 || m.Of(model.ScoreSatisfied) != 1 {
			t.Fatalf("branch today: %+v %v", m, err)
		}
		// Unknown fields and an out-of-range score are refused before the store.
		pt := e.tokens[model.RoleEvaluator]
		for _, body := range []string{`{"ticket_id":1,"score":4,"staff_id":9}`, `{"ticket_id":1,"score":9}`, `{"ticket_id":0,"score":4}`} {
			if status, b := e.call(t, "POST", "/api/v1/windows/1/rating", pt, body); status != http.StatusBadRequest {
				t.Errorf("%s: %d %s", body, status, b)
			}
		}
	})
}

// The customer's phone page rates its ticket by the public id with no
// token, once the ticket is done and within the window, once; a request
// from another site or not in JSON is refused and changes nothing.
func TestPhonePageRating(t *testing.T) {
	e := newEnv(t, Options{TakePerMinute: -1})
	ctx := context.Background()
	waiting, err := e.store.TakeTicket(ctx, "B", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	if status, b := postPage(t, e, waiting.PublicID, "application/json", "", `{"score":4}`); status != http.StatusConflict || !strings.Contains(b, model.ETicketNotDone) {
		t.Fatalf("rating a waiting ticket: %d %s", status, b)
	}
	done := finished(t, e.store)
	_, page, _ := getPage(t, e, "/t/"+done.PublicID, "zh-CN")
	if !strings.Contains(page, `"rate_open":true`) || !strings.Contains(page, "非常满意") || !strings.Contains(page, `value="wait_long"`) {
		t.Fatalf("the done ticket's page offers no rating:\n%s", page)
	}
	v := e.version(t)
	for _, c := range []struct{ ctype, origin, body string }{
		{"text/plain", "", `{"score":4}`},
		{"application/json", "http://evil.example", `{"score":4}`},
		{"application/json", "", `{"score":4,"window":2}`},
		{"application/json", "", `{"score":4,"tags":["cheap"]}`},
	} {
		if status, b := postPage(t, e, done.PublicID, c.ctype, c.origin, c.body); status < 400 || status >= 500 {
			t.Errorf("%+v: %d %s", c, status, b)
		}
	}
	if e.version(t) != v {
		t.Fatal("a refused rating changed the queue")
	}
	status, b := postPage(t, e, done.PublicID, "application/json", e.ts.URL, `{"score":2,"tags":["wait_long"],"comment":"人太多"}`)
	if status != http.StatusOK || !strings.Contains(b, `"score":2`) || strings.Contains(b, "staff") {
		t.Fatalf("phone rating: %d %s", status, b)
	}
	r, err := e.store.RatingOf(ctx, done.ID)
	if err != nil || r.Score != model.ScoreFair || r.Comment != "人太多" || r.Window != 1 {
		t.Fatalf("stored: %+v %v", r, err)
	}
	if status, b := postPage(t, e, done.PublicID, "application/json", "", `{"score":4}`); status != http.StatusConflict || !strings.Contains(b, model.EAlreadyRated) {
		t.Fatalf("second phone rating: %d %s", status, b)
	}
	if _, page, _ := getPage(t, e, "/t/"+done.PublicID, "zh-CN"); !strings.Contains(page, `"rated":2`) || strings.Contains(page, `"rate_open":true`) {
		t.Fatalf("the rated ticket's page:\n%s", page)
	}
	if status, _ := postPage(t, e, "nosuchticketnosuchticket", "application/json", "", `{"score":4}`); status != http.StatusNotFound {
		t.Fatalf("unknown ticket: %d", status)
	}
	// The peer client rates as the page does.
	other := finished(t, e.store)
	c := e.client(t, model.RoleScreen)
	if got, err := c.RateByPublicID(ctx, other.PublicID, model.RatingInput{Score: 4}); err != nil || got.Score != 4 {
		t.Fatalf("client page rating: %+v %v", got, err)
	}
	if _, err := c.RateByPublicID(ctx, other.PublicID, model.RatingInput{Score: 4}); model.ErrorCode(err) != model.EAlreadyRated {
		t.Fatalf("client second page rating: %v", err)
	}
}

// A rating holds the customer's own words: the manager reads any, the pad
// the ones of its own window's finishes; a pad of another window gets the
// answer of an unrated ticket, and every other terminal is refused.
func TestRatingReadersAreFew(t *testing.T) {
	st := daotest.SQLite(t)
	e := newEnvOn(t, st, Options{TakePerMinute: -1})
	ctx := context.Background()
	done := finished(t, st)
	if _, err := st.Rate(ctx, done.ID, 1, model.RatingInput{Score: model.ScoreFair, Comment: "等太久"}); err != nil {
		t.Fatal(err)
	}
	path := "/api/v1/tickets/" + strconv.FormatInt(done.ID, 10) + "/rating"
	for _, role := range []model.Role{model.RoleKiosk, model.RoleCaller, model.RoleScreen, model.RoleCounter} {
		if status, b := e.call(t, "GET", path, e.tokens[role], ""); status != http.StatusForbidden || strings.Contains(string(b), "等太久") {
			t.Errorf("%s reading a rating: %d %s", role, status, b)
		}
	}
	for _, role := range []model.Role{model.RoleManager, model.RoleEvaluator} {
		if status, b := e.call(t, "GET", path, e.tokens[role], ""); status != http.StatusOK || !strings.Contains(string(b), "等太久") {
			t.Errorf("%s reading a rating: %d %s", role, status, b)
		}
	}
	other := addToken(t, st, model.RoleEvaluator, 2)
	status, b := e.call(t, "GET", path, other, "")
	_, unrated := e.call(t, "GET", "/api/v1/tickets/"+strconv.FormatInt(finished(t, st).ID+1000, 10)+"/rating", e.tokens[model.RoleManager], "")
	if status != http.StatusNotFound || strings.Contains(string(b), "等太久") {
		t.Fatalf("the pad of window 2 reading window 1's rating: %d %s (an unknown ticket: %s)", status, b, unrated)
	}
}
