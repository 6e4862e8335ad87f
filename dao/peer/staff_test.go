package peer

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"jiaohao/model"
)

// staffClient is one browser signed in to the staff page: its cookies and
// the CSRF token the page was given.
type staffClient struct {
	base string
	http *http.Client
	csrf string
}

func newStaffClient(t testing.TB, base string, tr http.RoundTripper) *staffClient {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	return &staffClient{base: base, http: &http.Client{Jar: jar, Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends one request as the page would: JSON body, the CSRF header
// when the client has one, and this host as its Origin.
func (c *staffClient) do(t testing.TB, method, path, body string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if method != "GET" {
		req.Header.Set("Origin", c.base)
		if c.csrf != "" {
			req.Header.Set(staffCSRFHeader, c.csrf)
		}
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// signIn exchanges token for a session; the answer must be 200.
func (c *staffClient) signIn(t testing.TB, token string) *http.Response {
	t.Helper()
	resp, b := c.do(t, "POST", "/staff/api/session", `{"token":"`+token+`"}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("sign in: %d %s", resp.StatusCode, b)
	}
	var me struct{ CSRF, Name string }
	if err := json.Unmarshal(b, &me); err != nil || me.CSRF == "" {
		t.Fatalf("sign in answered %s", b)
	}
	c.csrf = me.CSRF
	return resp
}

func signedIn(t testing.TB, e *env) *staffClient {
	c := newStaffClient(t, e.ts.URL, nil)
	c.signIn(t, e.tokens[model.RoleHandheld])
	return c
}

// Without a session the page sends the browser to sign in, and every
// route of its API answers 401 with a sentence, changing nothing.
func TestStaffRefusedWithoutSession(t *testing.T) {
	e := newEnv(t, Options{})
	tk, err := e.store.TakeTicket(context.Background(), "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	v0 := e.version(t)
	for name, c := range map[string]*staffClient{"no cookie": newStaffClient(t, e.ts.URL, nil), "made-up cookie": newStaffClient(t, e.ts.URL, nil)} {
		if name == "made-up cookie" {
			c.csrf = "x"
			u, _ := http.NewRequest("GET", e.ts.URL, nil)
			c.http.Jar.SetCookies(u.URL, []*http.Cookie{{Name: staffCookie, Value: randomString()}})
		}
		resp, _ := c.do(t, "GET", "/staff", "")
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/staff/login" {
			t.Errorf("%s: /staff answered %d to %q, want a redirect to sign in", name, resp.StatusCode, resp.Header.Get("Location"))
		}
		if resp, b := c.do(t, "GET", "/staff/login", ""); resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `id="signin-token"`) {
			t.Errorf("%s: sign-in page %d", name, resp.StatusCode)
		}
		for _, rt := range e.srv.staffRoutes() {
			path := strings.NewReplacer("{id}", "1", "{action}", "requeue").Replace(rt.pattern)
			body := ""
			if rt.method == "POST" && rt.pattern == "/staff/api/tickets" {
				body = `{"service":"A"}`
			}
			resp, b := c.do(t, rt.method, path, body)
			if resp.StatusCode != http.StatusUnauthorized || errCode(t, b) != model.EUnauthorized || !strings.Contains(errMessage(t, b), "sign in") {
				t.Errorf("%s: %s %s answered %d %s, want 401 with a sentence", name, rt.method, path, resp.StatusCode, b)
			}
		}
	}
	if v := e.version(t); v != v0 {
		t.Fatalf("requests without a session changed the queue: version %d -> %d", v0, v)
	}
	if got, _ := e.store.Ticket(context.Background(), tk.ID); got.Status != model.Waiting {
		t.Fatalf("ticket is %s", got.Status)
	}
}

// Every change needs the session's own CSRF token and a same-origin
// request; a refused one takes no number.
func TestStaffCSRFChecked(t *testing.T) {
	e := newEnv(t, Options{})
	c := signedIn(t, e)
	other := signedIn(t, e) // another phone: its token is not this session's
	if other.csrf == c.csrf {
		t.Fatal("two sessions share a CSRF token")
	}
	v0 := e.version(t)
	for name, hdr := range map[string][]string{
		"no token":           {staffCSRFHeader, ""},
		"wrong token":        {staffCSRFHeader, c.csrf[:len(c.csrf)-1] + "x"},
		"other session's":    {staffCSRFHeader, other.csrf},
		"another site":       {"Origin", "http://evil.example"},
		"fetch metadata":     {"Sec-Fetch-Site", "cross-site"},
		"token in the query": {staffCSRFHeader, ""},
	} {
		path := "/staff/api/tickets"
		if name == "token in the query" {
			path += "?csrf=" + c.csrf
		}
		resp, b := c.do(t, "POST", path, `{"service":"A"}`, hdr...)
		if resp.StatusCode != http.StatusForbidden || errCode(t, b) != model.EForbidden {
			t.Errorf("%s: %d %s, want 403", name, resp.StatusCode, b)
		}
	}
	resp, b := c.do(t, "DELETE", "/staff/api/session", "", staffCSRFHeader, "")
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("sign-out without the token: %d %s", resp.StatusCode, b)
	}
	if v := e.version(t); v != v0 {
		t.Fatalf("a refused request changed the queue: version %d -> %d", v0, v)
	}
	resp, b = c.do(t, "POST", "/staff/api/tickets", `{"service":"A"}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("take with the token: %d %s", resp.StatusCode, b)
	}
	var tk staffTicket
	if err := json.Unmarshal(b, &tk); err != nil {
		t.Fatal(err)
	}
	if tk.Source != model.SourceHandheld || tk.CustomerURL != e.ts.URL+"/t/"+tk.PublicID {
		t.Fatalf("taken %+v", tk)
	}
}

// The session cookie: HttpOnly, SameSite=Strict, for the whole host, and
// under TLS Secure with the __Host- prefix.
func TestStaffSessionCookie(t *testing.T) {
	e := newEnv(t, Options{})
	check := func(resp *http.Response, tls bool) {
		t.Helper()
		var got *http.Cookie
		for _, ck := range resp.Cookies() {
			got = ck
		}
		want := staffCookie
		if tls {
			want = staffCookieTLS
		}
		if got == nil || got.Name != want || !got.HttpOnly || got.SameSite != http.SameSiteStrictMode || got.Path != "/" ||
			got.Secure != tls || got.MaxAge != int(staffSessionTTL.Seconds()) || len(got.Value) < 40 {
			t.Errorf("tls=%v: cookie %+v", tls, got)
		}
	}
	check(newStaffClient(t, e.ts.URL, nil).signIn(t, e.tokens[model.RoleHandheld]), false)

	tlsSrv := httptest.NewTLSServer(e.srv.Handler())
	defer tlsSrv.Close()
	c := newStaffClient(t, tlsSrv.URL, tlsSrv.Client().Transport)
	check(c.signIn(t, e.tokens[model.RoleHandheld]), true)
	if resp, b := c.do(t, "GET", "/staff/api/me", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("me over TLS: %d %s", resp.StatusCode, b)
	}
}

// Only a handheld's token signs in; a bad try is counted, and past five
// from one address its bad tries are refused with 429 while the right
// token still signs in (the branch's phones may share one NAT address).
func TestStaffSignInRefused(t *testing.T) {
	e := newEnv(t, Options{})
	c := newStaffClient(t, e.ts.URL, nil)
	for name, c2 := range map[string]struct {
		body   string
		status int
	}{
		"kiosk token": {`{"token":"` + e.tokens[model.RoleKiosk] + `"}`, http.StatusForbidden},
		"wrong token": {`{"token":"jh_nope"}`, http.StatusUnauthorized},
		"no token":    {`{"token":""}`, http.StatusBadRequest},
		"not json":    {`token=x`, http.StatusBadRequest},
	} {
		resp, b := c.do(t, "POST", "/staff/api/session", c2.body)
		if resp.StatusCode != c2.status || len(resp.Cookies()) != 0 {
			t.Errorf("%s: %d %s (cookies %v), want %d", name, resp.StatusCode, b, resp.Cookies(), c2.status)
		}
	}
	if resp, _ := c.do(t, "POST", "/staff/api/session", `{"token":"jh_nope"}`); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("fifth bad try: %d", resp.StatusCode)
	}
	resp, b := c.do(t, "POST", "/staff/api/session", `{"token":"jh_nope"}`)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || errCode(t, b) != model.ERateLimited {
		t.Fatalf("sixth bad try: %d %s, want 429 with Retry-After", resp.StatusCode, b)
	}
	other := newStaffClient(t, e.ts.URL, nil) // another phone behind the same address
	other.signIn(t, e.tokens[model.RoleHandheld])
	if resp, b := other.do(t, "GET", "/staff/api/me", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("the right token while the address is locked: %d %s", resp.StatusCode, b)
	}
	// A sign-in from another site's page is refused before the token is looked at.
	resp, _ = newStaffClient(t, e.ts.URL, nil).do(t, "POST", "/staff/api/session", `{"token":"`+e.tokens[model.RoleHandheld]+`"}`, "Origin", "http://evil.example")
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site sign-in: %d", resp.StatusCode)
	}
}

// A session ends at sign-out, and when its terminal is revoked, whether
// through this server or straight in the database (the command line).
func TestStaffSessionEnds(t *testing.T) {
	e := newEnv(t, Options{})
	c := signedIn(t, e)
	if resp, b := c.do(t, "DELETE", "/staff/api/session", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("sign out: %d %s", resp.StatusCode, b)
	}
	if resp, _ := c.do(t, "GET", "/staff/api/me", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("after sign-out: %d", resp.StatusCode)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang guard only
	defer cancel()
	for _, via := range []string{"server", "database"} {
		tok := addToken(t, e.store, model.RoleHandheld, 0)
		ts, err := e.store.Terminals(ctx)
		if err != nil {
			t.Fatal(err)
		}
		id := ts[len(ts)-1].ID
		c := newStaffClient(t, e.ts.URL, nil)
		c.signIn(t, tok)
		if via == "server" {
			if st, b := e.call(t, "DELETE", "/api/v1/terminals/"+itoa(id), e.tokens[model.RoleManager], ""); st != http.StatusOK {
				t.Fatalf("revoke: %d %s", st, b)
			}
		} else if err := e.store.RevokeTerminal(ctx, id); err != nil {
			t.Fatal(err)
		}
		// Through the server the session is gone at once; from the
		// database, at the first request after the token's cached check.
		for ctx.Err() == nil {
			resp, _ := c.do(t, "GET", "/staff/api/me", "")
			if resp.StatusCode == http.StatusUnauthorized {
				break
			}
			if via == "server" || resp.StatusCode != http.StatusOK {
				t.Fatalf("revoked via %s: %d", via, resp.StatusCode)
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("revoked via %s: the session still answers", via)
		}
		e.srv.staff.mu.Lock()
		for _, sess := range e.srv.staff.byKey {
			if sess.who.ID == id {
				t.Errorf("revoked via %s: the session is still held", via)
			}
		}
		e.srv.staff.mu.Unlock()
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
