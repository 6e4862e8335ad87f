package peer

import (
	"context"
	"fmt"
	"jiaohao/model"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The auth matrix: every role against every route, plus no token, a wrong
// token and a revoked one. "ok" means the request got past authentication
// and authorisation (any status but 401 and 403).
func TestAuthMatrix(t *testing.T) {
	e := newEnv(t, Options{})
	tk := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", e.tokens[model.RoleManager], `{"service":"A"}`)
	id := fmt.Sprint(tk.ID)
	addToken(t, e.store, model.RoleScreen, 0)
	terms, err := e.store.Terminals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	spare := terms[len(terms)-1] // revoked by the manager's probe
	if _, err := e.store.AddStaff(context.Background(), model.Staff{Number: "8001", Name: "林晓"}, "clerk-pass"); err != nil {
		t.Fatal(err)
	}
	signIn := `{"number":"8001","password":"clerk-pass"}`
	const (
		K = 1 << iota
		C
		S
		W // the window screen, bound to window 1 like the caller
		M
		E   // the rating pad, bound to window 1 like the caller
		all = K | C | S | W | M | E
	)
	type probe struct {
		method, path, body string
		allowed            int // roles that pass; the caller acts for window 1
		// win is the window the probe acts for: 0 none, 1 the caller's
		// own, more another window.
		win int
	}
	probes := map[string][]probe{
		"POST /api/v1/tickets":              {{"POST", "/api/v1/tickets", `{"service":"B"}`, K | C | M, 0}},
		"GET /api/v1/tickets/{id}":          {{"GET", "/api/v1/tickets/" + id, "", all, 0}},
		"GET /api/v1/tickets/{id}/position": {{"GET", "/api/v1/tickets/" + id + "/position", "", all, 0}},
		"GET /api/v1/public/{pid}":          {{"GET", "/api/v1/public/" + tk.PublicID, "", all, 0}},
		"GET /api/v1/windows":               {{"GET", "/api/v1/windows", "", all, 0}},
		"GET /api/v1/services":              {{"GET", "/api/v1/services", "", all, 0}},
		"GET /api/v1/settings":              {{"GET", "/api/v1/settings", "", all, 0}},
		"GET /api/v1/snapshot":              {{"GET", "/api/v1/snapshot", "", all, 0}},
		"GET /api/v1/events":                {{"GET", "/api/v1/events?since=0", "", all, 0}},
		"GET /api/v1/eventlog":              {{"GET", "/api/v1/eventlog?since=0", "", all, 0}},
		"GET /api/v1/time":                  {{"GET", "/api/v1/time", "", all, 0}},
		"GET /api/v1/positions/next":        {{"GET", "/api/v1/positions/next", "", all, 0}},
		"GET /api/v1/whoami":                {{"GET", "/api/v1/whoami", "", all, 0}},
		"POST /api/v1/sweep":                {{"POST", "/api/v1/sweep", "", C | M, 0}},
		"POST /api/v1/devices":              {{"POST", "/api/v1/devices", `{"kind":"printer","fault":""}`, all, 0}},
		"PUT /api/v1/windows/{n}":           {{"PUT", "/api/v1/windows/4", `{"name":"4号窗口","services":["A","B","V"]}`, M, 0}},
		"PUT /api/v1/services/{code}":       {{"PUT", "/api/v1/services/B", `{"name":"对公业务","priority":5,"start_no":1,"enabled":true}`, M, 0}},
		"PUT /api/v1/settings/{key}":        {{"PUT", "/api/v1/settings/notice", `{"value":"欢迎"}`, M, 0}},
		"PUT /api/v1/branch":                {{"PUT", "/api/v1/branch", `{"name":"测试网点","time_zone":"Asia/Shanghai"}`, M, 0}},
		"GET /api/v1/areas":                 {{"GET", "/api/v1/areas", "", all, 0}},
		"POST /api/v1/areas":                {{"POST", "/api/v1/areas", `{"name":"二楼贵宾区","where":"二楼"}`, M, 0}},
		"PUT /api/v1/areas/{id}":            {{"PUT", "/api/v1/areas/1", `{"name":"一楼大厅","where":"一楼"}`, M, 0}},
		"DELETE /api/v1/areas/{id}":         {{"DELETE", "/api/v1/areas/999", "", M, 0}},
		"GET /api/v1/logo":                  {{"GET", "/api/v1/logo", "", all, 0}},
		"PUT /api/v1/logo":                  {{"PUT", "/api/v1/logo", `{"data":""}`, M, 0}},
		"GET /api/v1/terminals":             {{"GET", "/api/v1/terminals", "", M, 0}},
		"POST /api/v1/terminals":            {{"POST", "/api/v1/terminals", `{"name":"hall 2","role":"screen","token_hash":"` + strings.Repeat("ab", 32) + `"}`, M, 0}},
		"DELETE /api/v1/terminals/{id}":     {{"DELETE", "/api/v1/terminals/" + fmt.Sprint(spare.ID), "", M, 0}},
		"GET /api/v1/reports":               {{"GET", "/api/v1/reports?from=2026-03-01", "", M, 0}},
		"POST /api/v1/alerts/{id}/ack":      {{"POST", "/api/v1/alerts/999/ack", "", M, 0}},
		"GET /api/v1/healthcheck":           {{"GET", "/api/v1/healthcheck", "", M, 0}},
		"POST /api/v1/healthcheck":          {{"POST", "/api/v1/healthcheck", `{"date":"2026-03-01"}`, M, 0}},
		// A kiosk lists and claims its own prints (the ticket asks none: 404).
		"GET /api/v1/prints":             {{"GET", "/api/v1/prints?kiosk=kiosk", "", K, 0}},
		"POST /api/v1/prints/{id}/claim": {{"POST", "/api/v1/prints/" + id + "/claim", `{"kiosk":"kiosk"}`, K, 0}},
		// A caller signs a clerk in and out at its own window and reads
		// that clerk's day; the manager at any window and manages the
		// accounts.
		"POST /api/v1/windows/{n}/clerk": {
			{"POST", "/api/v1/windows/1/clerk", signIn, C | M, 1},
			{"POST", "/api/v1/windows/2/clerk", signIn, M, 2},
		},
		"DELETE /api/v1/windows/{n}/clerk": {
			{"DELETE", "/api/v1/windows/1/clerk", "", C | M, 1},
			{"DELETE", "/api/v1/windows/2/clerk", "", M, 2},
		},
		"GET /api/v1/windows/{n}/clerk/today": {
			{"GET", "/api/v1/windows/1/clerk/today", "", C | M, 1},
			{"GET", "/api/v1/windows/2/clerk/today", "", M, 2},
		},
		// The rating pad rates what its own window finished, and nobody
		// else rates for a customer; its window's roles and the manager
		// read the clerk's count there, every role the branch's.
		"POST /api/v1/windows/{n}/rating": {
			{"POST", "/api/v1/windows/1/rating", `{"ticket_id":` + id + `,"score":4}`, E, 1},
			{"POST", "/api/v1/windows/2/rating", `{"ticket_id":` + id + `,"score":4}`, 0, 2},
		},
		"GET /api/v1/windows/{n}/satisfaction": {
			{"GET", "/api/v1/windows/1/satisfaction", "", C | W | E | M, 1},
			{"GET", "/api/v1/windows/2/satisfaction", "", M, 2},
		},
		"GET /api/v1/satisfaction":             {{"GET", "/api/v1/satisfaction", "", all, 0}},
		"GET /api/v1/tickets/{id}/rating":      {{"GET", "/api/v1/tickets/" + id + "/rating", "", E | M, 0}},
		"GET /api/v1/clerks":                   {{"GET", "/api/v1/clerks", "", M, 0}},
		"POST /api/v1/clerks":                  {{"POST", "/api/v1/clerks", `{"number":"8002","name":"何平","password":"clerk-pass","services":["A"]}`, M, 0}},
		"PUT /api/v1/clerks/{number}/enabled":  {{"PUT", "/api/v1/clerks/8001/enabled", `{"enabled":true}`, M, 0}},
		"PUT /api/v1/clerks/{number}/services": {{"PUT", "/api/v1/clerks/8001/services", `{"services":["A","B"]}`, M, 0}},
		"PUT /api/v1/clerks/{number}/password": {{"PUT", "/api/v1/clerks/8001/password", `{"password":"clerk-pass"}`, M, 0}},
		"POST /api/v1/windows/{n}/call": {
			{"POST", "/api/v1/windows/1/call", "", C | M, 1},
			{"POST", "/api/v1/windows/2/call", "", M, 2},
		},
		"PUT /api/v1/windows/{n}/status": {
			{"PUT", "/api/v1/windows/1/status", `{"status":"open"}`, C | M, 1},
			{"PUT", "/api/v1/windows/1/status", `{"status":"lunch"}`, C | M, 1},
			{"PUT", "/api/v1/windows/2/status", `{"status":"open"}`, M, 2},
			{"PUT", "/api/v1/windows/2/status", `{"status":"lunch"}`, M, 2},
		},
		// A caller switches its own window's services (seed 003 §3.2),
		// among those the manager allowed; another window's stays the
		// manager's.
		"PUT /api/v1/windows/{n}/services": {
			{"PUT", "/api/v1/windows/1/services", `{"services":["A","B","V"]}`, C | M, 1},
			{"PUT", "/api/v1/windows/1/services", `{"services":["A"],"allowed_only":true}`, C | M, 1},
			{"PUT", "/api/v1/windows/2/services", `{"services":["A","B","V"]}`, M, 2},
		},
		"POST /api/v1/tickets/{id}/{action}": {
			{"POST", "/api/v1/tickets/" + id + "/recall", `{"window":1}`, C | M, 1},
			{"POST", "/api/v1/tickets/" + id + "/pass", ``, C | M, 1},
			{"POST", "/api/v1/tickets/" + id + "/finish", `{"window":2}`, M, 2},
			{"POST", "/api/v1/tickets/" + id + "/transfer", `{"service":"B"}`, C | M, 1},
			{"POST", "/api/v1/tickets/" + id + "/transfer", `{"service":"B","from_window":3}`, M, 3},
		},
		// The manager keeps the customer register; a PC that takes
		// numbers identifies and takes for a customer; a caller reads
		// the customer of its own window's ticket.
		"POST /api/v1/customers/search":    {{"POST", "/api/v1/customers/search", `{"query":"C1"}`, M, 0}},
		"POST /api/v1/customers":           {{"POST", "/api/v1/customers", `{"number":"C1","name":"王小明","level":"贵宾"}`, M, 0}},
		"PUT /api/v1/customers/{id}":       {{"PUT", "/api/v1/customers/999", `{"number":"C2","name":"李四","level":"普通","enabled":true}`, M, 0}},
		"POST /api/v1/customers/import":    {{"POST", "/api/v1/customers/import", `{"rows":[{"number":"C3","name":"赵六","level":"普通","line":2}]}`, M, 0}},
		"GET /api/v1/customer-levels":      {{"GET", "/api/v1/customer-levels", "", M, 0}},
		"POST /api/v1/customer-levels":     {{"POST", "/api/v1/customer-levels", `{"name":"钻石","priority":2}`, M, 0}},
		"PUT /api/v1/customer-levels/{id}": {{"PUT", "/api/v1/customer-levels/999", `{"name":"金卡","priority":3}`, M, 0}},
		"POST /api/v1/customers/identify":  {{"POST", "/api/v1/customers/identify", `{"key":"13812345678"}`, K | C | M, 0}},
		"POST /api/v1/customer-tickets":    {{"POST", "/api/v1/customer-tickets", `{"service":"A","customer":999}`, K | C | M, 0}},
		"GET /api/v1/windows/{n}/customer": {
			{"GET", "/api/v1/windows/1/customer", "", C | M, 1},
			{"GET", "/api/v1/windows/2/customer", "", M, 2},
		},
	}
	// The roles of the design and the window screen keep their column of
	// the matrix; every role of the table, those and any added later, is
	// also held to what its permissions say (tableAllows).
	bits := map[model.Role]int{model.RoleKiosk: K, model.RoleCaller: C, model.RoleScreen: S, model.RoleCounter: W, model.RoleManager: M,
		model.RoleEvaluator: E}

	revoked := addToken(t, e.store, model.RoleManager, 0)
	ts, err := e.store.Terminals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := e.store.RevokeTerminal(context.Background(), ts[len(ts)-1].ID); err != nil {
		t.Fatal(err)
	}

	for _, rt := range e.srv.routes() {
		key := rt.method + " " + rt.pattern
		ps, ok := probes[key]
		if !ok {
			t.Errorf("route %s has no probe in the matrix", key)
			continue
		}
		for _, p := range ps {
			for _, spec := range model.Roles() {
				role := spec.Role
				want := tableAllows(spec, rt.need, p.win)
				if bit, ok := bits[role]; ok {
					if matrix := p.allowed&bit != 0; matrix != want {
						t.Errorf("%s %s %s as %s: the matrix says allowed=%v, the role table %v", p.method, p.path, p.body, role, matrix, want)
					}
					want = p.allowed&bit != 0
				}
				status, body := e.call(t, p.method, p.path, e.tokens[role], p.body)
				// Head office's token is no member of the branch: it is
				// answered as a token of no branch is.
				if spec.HeadOffice && (status != http.StatusUnauthorized || errCode(t, body) != "unauthorized") {
					t.Errorf("%s %s as %s: %d %s, want 401 as for a token of no branch", p.method, p.path, role, status, body)
				}
				got := status != http.StatusUnauthorized && status != http.StatusForbidden
				if got != want {
					t.Errorf("%s %s %s as %s: status %d (%s), want allowed=%v", p.method, p.path, p.body, role, status, body, want)
				}
				if status == http.StatusForbidden && errCode(t, body) != "forbidden" {
					t.Errorf("403 without code forbidden: %s", body)
				}
			}
			for name, tok := range map[string]string{"no token": "", "wrong token": "jh_not-a-real-token", "revoked": revoked} {
				status, body := e.call(t, p.method, p.path, tok, p.body)
				if status != http.StatusUnauthorized || errCode(t, body) != "unauthorized" {
					t.Errorf("%s %s with %s: %d %s, want 401", p.method, p.path, name, status, body)
				}
			}
		}
	}

	// Open routes need no token.
	if status, b := e.call(t, "GET", "/api/v1/health", "", ""); status != http.StatusOK {
		t.Errorf("health: %d %s", status, b)
	}
	if status, _ := e.call(t, "GET", "/t/"+tk.PublicID, "", ""); status != http.StatusOK {
		t.Errorf("customer page: %d", status)
	}
	// A scheme other than Bearer is no token at all.
	req, _ := http.NewRequest("GET", e.ts.URL+"/api/v1/snapshot", nil)
	req.Header.Set("Authorization", "Basic "+e.tokens[model.RoleManager])
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("basic auth: %d", resp.StatusCode)
	}
}

// tableAllows is what the role table says of a request needing need that
// acts for window win (0: none, 1: the window-bound role's own): a role
// that manages acts for any window, one bound to a window for its own.
func tableAllows(spec model.RoleSpec, need model.Permission, win int) bool {
	if !spec.Desktop() || !spec.Role.May(need) { // a page's role signs in to its page only
		return false
	}
	return win == 0 || spec.Role.May(model.PermManage) || (spec.Window && win == 1)
}

// The window screen's token is bound to its window and only watches it:
// it reads the queue, but may not call, pause or act on a ticket even for
// its own window, and nothing changes when it tries. A window screen
// registered without a window is refused.
func TestCounterTokenWatchesOnly(t *testing.T) {
	e := newEnv(t, Options{TakePerMinute: -1})
	ctx := context.Background()
	tk, err := e.store.TakeTicket(ctx, "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	counter := e.tokens[model.RoleCounter]
	who := must[Whoami](t, e, http.StatusOK, "GET", "/api/v1/whoami", counter, "")
	if who.Role != model.RoleCounter || who.Window != 1 {
		t.Fatalf("whoami: %+v, want the counter of window 1", who)
	}
	must[model.Snapshot](t, e, http.StatusOK, "GET", "/api/v1/snapshot", counter, "")
	v := e.version(t)
	for _, p := range [][3]string{
		{"POST", "/api/v1/windows/1/call", ""},
		{"PUT", "/api/v1/windows/1/status", `{"status":"paused"}`},
		{"POST", "/api/v1/tickets/" + fmt.Sprint(tk.ID) + "/cancel", `{"window":1}`},
		{"POST", "/api/v1/tickets", `{"service":"A"}`},
	} {
		if status, b := e.call(t, p[0], p[1], counter, p[2]); status != http.StatusForbidden || errCode(t, b) != "forbidden" {
			t.Errorf("%s %s as the window screen: %d %s, want 403", p[0], p[1], status, b)
		}
	}
	if e.version(t) != v {
		t.Fatal("a refused request of the window screen changed the queue")
	}
	_, hash, _ := NewToken()
	_, err = e.store.AddTerminal(ctx, model.Terminal{Name: "counter without window", Role: model.RoleCounter, TokenHash: hash})
	if model.ErrorCode(err) != model.EInvalidInput {
		t.Fatalf("a window screen without a window: %v, want invalid input", err)
	}
}

// Taking numbers is limited per token: the burst is the per-minute limit,
// and one token running out does not affect another.
func TestTakeRateLimit(t *testing.T) {
	e := newEnv(t, Options{TakePerMinute: 5})
	for i := 0; i < 5; i++ {
		must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", e.tokens[model.RoleKiosk], `{"service":"A"}`)
	}
	v := e.version(t)
	status, b := e.call(t, "POST", "/api/v1/tickets", e.tokens[model.RoleKiosk], `{"service":"A"}`)
	if status != http.StatusTooManyRequests || errCode(t, b) != "rate_limited" {
		t.Fatalf("6th take: %d %s", status, b)
	}
	if e.version(t) != v {
		t.Fatal("a refused take changed the queue")
	}
	must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", e.tokens[model.RoleManager], `{"service":"A"}`)

	l := newLimiter(60) // one a second
	now := time.Unix(1000, 0)
	for i := 0; i < 60; i++ {
		if !l.allow(1, now) {
			t.Fatalf("burst refused at %d", i)
		}
	}
	if l.allow(1, now) || !l.allow(1, now.Add(time.Second)) || l.allow(1, now.Add(time.Second)) {
		t.Fatal("bucket does not refill at one per second")
	}
}

// A caller acts only on its own window's tickets: what the window holds or
// passed. Other windows' tickets are refused, and so is every waiting
// ticket, of a service the window serves or not; the manager keeps every
// power.
func TestCallerScope(t *testing.T) {
	e := newEnv(t, Options{TakePerMinute: -1})
	ctx := context.Background()
	caller, manager := e.tokens[model.RoleCaller], e.tokens[model.RoleManager] // the caller is window 1
	if _, err := e.store.SetWindowServices(ctx, 1, []string{"A"}); err != nil {
		t.Fatal(err)
	}
	take := func(svc string) string {
		tk, err := e.store.TakeTicket(ctx, svc, 0, "test")
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(tk.ID)
	}
	waitingA := take("A")
	take("B")
	take("B")
	// Window 2 holds one ticket and window 3 passed another.
	held, err := e.store.CallNext(ctx, 2, "B")
	if err != nil {
		t.Fatal(err)
	}
	passed, err := e.store.CallNext(ctx, 3, "B")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.Pass(ctx, passed.ID, 3); err != nil {
		t.Fatal(err)
	}
	heldID, passedID, waitingB := fmt.Sprint(held.ID), fmt.Sprint(passed.ID), take("B")

	v := e.version(t)
	for _, c := range []struct {
		path, body string
		status     int
		code       string
	}{
		{"/api/v1/tickets/" + waitingA + "/cancel", ``, http.StatusForbidden, "forbidden"},
		{"/api/v1/tickets/" + waitingB + "/cancel", ``, http.StatusForbidden, "forbidden"},
		{"/api/v1/tickets/" + waitingB + "/cancel", `{"window":1}`, http.StatusForbidden, "forbidden"},
		{"/api/v1/tickets/" + heldID + "/cancel", ``, http.StatusConflict, "invalid_transition"},
		{"/api/v1/tickets/" + heldID + "/cancel", `{"window":2}`, http.StatusForbidden, "forbidden"},
		{"/api/v1/tickets/" + heldID + "/transfer", `{"service":"A"}`, http.StatusConflict, "invalid_transition"},
		{"/api/v1/tickets/" + heldID + "/transfer", `{"window":1}`, http.StatusConflict, "invalid_transition"},
		{"/api/v1/tickets/" + heldID + "/transfer", `{"window":1,"from_window":2}`, http.StatusForbidden, "forbidden"},
		{"/api/v1/tickets/" + heldID + "/finish", ``, http.StatusConflict, "invalid_transition"},
		{"/api/v1/tickets/" + passedID + "/requeue", ``, http.StatusConflict, "invalid_transition"},
		{"/api/v1/tickets/" + passedID + "/cancel", ``, http.StatusConflict, "invalid_transition"},
		{"/api/v1/tickets/" + passedID + "/undo-pass", ``, http.StatusConflict, "invalid_transition"},
		{"/api/v1/tickets/" + passedID + "/requeue", `{"window":3}`, http.StatusForbidden, "forbidden"},
	} {
		status, b := e.call(t, "POST", c.path, caller, c.body)
		if status != c.status || errCode(t, b) != c.code {
			t.Errorf("caller POST %s %s: %d %s, want %d %s", c.path, c.body, status, b, c.status, c.code)
		}
	}
	if e.version(t) != v {
		t.Fatal("a refused caller changed the queue")
	}

	// Its own window's tickets: cancel what it called, requeue what it
	// passed, transfer what it holds.
	mine := must[Ticket](t, e, http.StatusOK, "POST", "/api/v1/windows/1/call", caller, ``)
	if mine.ID != mustID(t, waitingA) {
		t.Fatalf("window 1 called %s", mine.Number)
	}
	if got := must[Ticket](t, e, http.StatusOK, "POST", fmt.Sprintf("/api/v1/tickets/%d/cancel", mine.ID), caller, ``); got.Status.String() != "cancelled" {
		t.Fatalf("own cancel: %+v", got)
	}
	take("A")
	mine = must[Ticket](t, e, http.StatusOK, "POST", "/api/v1/windows/1/call", caller, ``)
	must[Ticket](t, e, http.StatusOK, "POST", fmt.Sprintf("/api/v1/tickets/%d/pass", mine.ID), caller, ``)
	if got := must[Ticket](t, e, http.StatusOK, "POST", fmt.Sprintf("/api/v1/tickets/%d/requeue", mine.ID), caller, ``); got.Status.String() != "waiting" {
		t.Fatalf("own requeue: %+v", got)
	}
	mine = must[Ticket](t, e, http.StatusOK, "POST", "/api/v1/windows/1/call", caller, ``)
	if got := must[Ticket](t, e, http.StatusOK, "POST", fmt.Sprintf("/api/v1/tickets/%d/transfer", mine.ID), caller, `{"service":"B"}`); got.Service != "B" {
		t.Fatalf("own transfer: %+v", got)
	}

	// The manager cancels a waiting ticket and another window's ticket.
	for _, id := range []string{waitingB, heldID, passedID} {
		if got := must[Ticket](t, e, http.StatusOK, "POST", "/api/v1/tickets/"+id+"/cancel", manager, ``); got.Status.String() != "cancelled" {
			t.Fatalf("manager cancel of %s: %+v", id, got)
		}
	}
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	var id int64
	if _, err := fmt.Sscan(s, &id); err != nil {
		t.Fatal(err)
	}
	return id
}
