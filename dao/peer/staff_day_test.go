package peer

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"jiaohao/model"
)

// A passed number of a closed business day is not the floor's: the
// handheld's requeue and cancel are refused with other_day and a sentence,
// the store refuses the floor the same way on its own (any path), and the
// ticket and the closed day stay as they were.
func TestStaffFloorRefusesYesterdaysPassed(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	old := passedTicket(t, e, 1)
	e.store.ShiftClock(30 * time.Hour)
	c := signedIn(t, e)
	v0 := e.version(t)
	for _, act := range []string{"requeue", "cancel"} {
		resp, b := c.do(t, "POST", "/staff/api/tickets/"+itoa(old.ID)+"/"+act, "")
		if resp.StatusCode != http.StatusConflict || errCode(t, b) != model.EOtherDay {
			t.Errorf("floor %s of yesterday's passed ticket: %d %s", act, resp.StatusCode, b)
		}
	}
	if _, err := e.store.Requeue(ctx, old.ID, model.FloorWindow); model.ErrorCode(err) != model.EOtherDay {
		t.Errorf("the store let the floor requeue yesterday's ticket: %v", err)
	}
	if _, err := e.store.Cancel(ctx, old.ID, model.FloorWindow); model.ErrorCode(err) != model.EOtherDay {
		t.Errorf("the store let the floor cancel yesterday's ticket: %v", err)
	}
	got, err := e.store.Ticket(ctx, old.ID)
	if err != nil || got.Status != model.Passed || got.BusinessDate != old.BusinessDate || e.version(t) != v0 {
		t.Fatalf("yesterday's ticket changed: %+v %v, version %d -> %d", got, err, v0, e.version(t))
	}
}

// A handheld's token signs in to /staff and nothing else: on the PCs' API
// it is refused with 403 and a sentence before any handler runs (no
// number, no event log, no device alert), and the queue does not move.
func TestHandheldTokenRefusedOnPCsAPI(t *testing.T) {
	e := newEnv(t, Options{})
	tok := e.tokens[model.RoleHandheld]
	v0 := e.version(t)
	for _, p := range []struct{ method, path, body string }{
		{"POST", "/api/v1/tickets", `{"service":"A"}`},
		{"GET", "/api/v1/snapshot", ""},
		{"GET", "/api/v1/events?since=0", ""},
		{"POST", "/api/v1/devices", `{"kind":"printer","fault":"paper out"}`},
	} {
		status, b := e.call(t, p.method, p.path, tok, p.body)
		if status != http.StatusForbidden || errCode(t, b) != model.EForbidden || !strings.Contains(string(b), "/staff") {
			t.Errorf("%s %s with a handheld token: %d %s", p.method, p.path, status, b)
		}
	}
	if e.version(t) != v0 {
		t.Fatalf("a refused request changed the queue: version %d -> %d", v0, e.version(t))
	}
	signedIn(t, e) // the same token still signs in to its page
}

// The staff page's CSP names its own event stream's ws:// (wss:// under
// TLS) source beside 'self', for older WebKit; a Host header carrying
// anything but host[:port] adds nothing to the policy.
func TestStaffPageCSPNamesWebSocket(t *testing.T) {
	e := newEnv(t, Options{})
	csp := func(host string) string {
		req := httptest.NewRequest("GET", "/staff/login", nil)
		req.Host = host
		rec := httptest.NewRecorder()
		e.srv.Handler().ServeHTTP(rec, req)
		return rec.Header().Get("Content-Security-Policy")
	}
	for host, want := range map[string]string{
		"192.168.1.20:8520": "connect-src 'self' ws://192.168.1.20:8520;",
		"[fe80::1]:8520":    "connect-src 'self' ws://[fe80::1]:8520;",
		"host.lan":          "connect-src 'self' ws://host.lan;",
		"x;script-src *":    "connect-src 'self';",
		"a.lan:80;img-src":  "connect-src 'self';",
		"::1":               "connect-src 'self';",
	} {
		if got := csp(host); !strings.Contains(got, want) {
			t.Errorf("Host %q: CSP %q, want %q", host, got, want)
		}
	}
	tlsSrv := httptest.NewTLSServer(e.srv.Handler())
	defer tlsSrv.Close()
	resp, err := tlsSrv.Client().Get(tlsSrv.URL + "/staff/login")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got, want := resp.Header.Get("Content-Security-Policy"), "wss://"+strings.TrimPrefix(tlsSrv.URL, "https://")+";"; !strings.Contains(got, want) {
		t.Errorf("under TLS: CSP %q, want %q", got, want)
	}
}
