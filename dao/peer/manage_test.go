package peer

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"jiaohao/model"
)

// A manager PC that connects through the peer server registers a PC, the
// new token works, revoking it shuts it out; the token itself never
// crosses the network and no hash is ever listed.
func TestManagerManagesTerminalsThroughPeer(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	c := e.client(t, model.RoleManager)

	tok, hash, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	added, err := c.AddTerminal(ctx, model.Terminal{Name: "1号窗口", Role: model.RoleCaller, Window: 1, TokenHash: hash})
	if err != nil {
		t.Fatalf("add: %v", err)
	}
	if added.ID == 0 || added.Name != "1号窗口" || added.Role != model.RoleCaller || added.Window != 1 || added.Revoked {
		t.Fatalf("added %+v", added)
	}
	who := must[Whoami](t, e, http.StatusOK, "GET", "/api/v1/whoami", tok, "")
	if who.ID != added.ID || who.Role != model.RoleCaller || who.Window != 1 {
		t.Fatalf("the new token is %+v, want terminal %d, caller at window 1", who, added.ID)
	}

	list, err := c.Terminals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if last := list[len(list)-1]; last.ID != added.ID || last.TokenHash != "" {
		t.Fatalf("listed %+v", last)
	}
	if _, raw := e.call(t, "GET", "/api/v1/terminals", e.tokens[model.RoleManager], ""); bytes.Contains(raw, []byte(hash)) {
		t.Fatal("the terminal list shows a token hash")
	}

	if err := c.RevokeTerminal(ctx, added.ID); err != nil {
		t.Fatalf("revoke: %v", err)
	}
	if status, b := e.call(t, "GET", "/api/v1/whoami", tok, ""); status != http.StatusUnauthorized {
		t.Fatalf("revoked token: %d %s", status, b)
	}
	if err := c.RevokeTerminal(ctx, 99999); !model.IsCode(err, model.ENotFound) {
		t.Fatalf("revoke unknown: %v, want not_found", err)
	}
}

// Bad registrations are one sentence each and register nothing; a manager
// cannot revoke the token it is using.
func TestTerminalRequestsRejectBadInput(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	c := e.client(t, model.RoleManager)
	before, err := e.store.Terminals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, hash, _ := NewToken()
	for name, body := range map[string]string{
		"short hash":        `{"name":"x","role":"screen","token_hash":"abc"}`,
		"upper-case hash":   `{"name":"x","role":"screen","token_hash":"` + strings.ToUpper(hash) + `"}`,
		"unknown role":      `{"name":"x","role":"boss","token_hash":"` + hash + `"}`,
		"window too big":    `{"name":"x","role":"caller","window":1000,"token_hash":"` + hash + `"}`,
		"caller, no window": `{"name":"x","role":"caller","token_hash":"` + hash + `"}`,
		"no such window":    `{"name":"x","role":"caller","window":77,"token_hash":"` + hash + `"}`,
		"control char":      `{"name":"a\u0007b","role":"screen","token_hash":"` + hash + `"}`,
		"the token itself":  `{"name":"x","role":"screen","token":"jh_abc","token_hash":"` + hash + `"}`,
		"not JSON":          `role=screen`,
	} {
		status, b := e.call(t, "POST", "/api/v1/terminals", e.tokens[model.RoleManager], body)
		if code := errCode(t, b); status < 400 || (code != "invalid_input" && code != "not_found") {
			t.Errorf("%s: %d %s", name, status, b)
		}
	}
	for _, id := range []string{"0", "-1", "x", "1234567890123456789"} {
		if status, b := e.call(t, "DELETE", "/api/v1/terminals/"+id, e.tokens[model.RoleManager], ""); status != http.StatusBadRequest {
			t.Errorf("revoke %q: %d %s", id, status, b)
		}
	}
	me, err := c.Whoami(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.RevokeTerminal(ctx, me.ID); !model.IsCode(err, model.EInvalidInput) {
		t.Fatalf("revoking its own token: %v, want invalid_input", err)
	}
	after, err := e.store.Terminals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Fatalf("bad requests registered %d terminals", len(after)-len(before))
	}
	for _, term := range after {
		if term.Revoked {
			t.Fatalf("terminal %d was revoked by a refused request", term.ID)
		}
	}
}

// The host renders the report and its bytes reach the manager intact; the
// period and language arrive as asked, bad ones never reach the renderer.
func TestReportThroughPeer(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	pdf := []byte("%PDF-1.7\n\x00\xff\xfe binary")
	e := newEnv(t, Options{Report: func(_ context.Context, from, to, lang string) (Report, error) {
		mu.Lock()
		asked = append(asked, from+".."+to+" "+lang)
		mu.Unlock()
		return Report{Name: "jiaohao-report-" + from + "_" + to, PDF: pdf, CSV: []byte("业务,取号\nA,3\n")}, nil
	}})
	c := e.client(t, model.RoleManager)
	r, err := c.Report(context.Background(), "2026-03-01", "2026-03-31", "en")
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "jiaohao-report-2026-03-01_2026-03-31" || !bytes.Equal(r.PDF, pdf) || string(r.CSV) != "业务,取号\nA,3\n" {
		t.Fatalf("report arrived as %q, %q, %q", r.Name, r.PDF, r.CSV)
	}
	for _, q := range []string{"from=2026-3-1", "from=2026-03-01&to=yesterday", "from=2026-03-01&lang=fr", ""} {
		if status, b := e.call(t, "GET", "/api/v1/reports?"+q, e.tokens[model.RoleManager], ""); status != http.StatusBadRequest || errCode(t, b) != "invalid_input" {
			t.Errorf("report %q: %d %s", q, status, b)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || asked[0] != "2026-03-01..2026-03-31 en" {
		t.Fatalf("the renderer was asked %q", asked)
	}

	bare := newEnv(t, Options{})
	if _, err := bare.client(t, model.RoleManager).Report(context.Background(), "2026-03-01", "2026-03-01", "zh"); !model.IsCode(err, model.EUnavailable) {
		t.Fatalf("a server without reports: %v, want unavailable", err)
	}
}

// Revoking a PC ends its live event stream too, not only its next request:
// a stolen screen stops watching the queue. A PC still allowed keeps its
// stream. Revoked through this server the stream ends at once; revoked
// elsewhere (the command line, straight in the database), at the next
// ping.
func TestRevokeEndsLiveStream(t *testing.T) {
	t.Run("through the server", func(t *testing.T) {
		// Pings are far apart: only the revocation itself can end the stream in time.
		revokeEndsStream(t, Options{PingEvery: time.Hour}, func(e *env, id int64) error {
			return e.client(t, model.RoleManager).RevokeTerminal(context.Background(), id)
		})
	})
	t.Run("elsewhere", func(t *testing.T) {
		revokeEndsStream(t, Options{PingEvery: 50 * time.Millisecond}, func(e *env, id int64) error {
			return e.store.RevokeTerminal(context.Background(), id)
		})
	})
}

func revokeEndsStream(t *testing.T, opts Options, revoke func(*env, int64) error) {
	e := newEnv(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stolen := addToken(t, e.store, model.RoleScreen, 0)
	terms, err := e.store.Terminals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	id := terms[len(terms)-1].ID
	dial := func(tok string) *websocket.Conn {
		url := "ws" + strings.TrimPrefix(e.ts.URL, "http") + "/api/v1/events"
		conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + tok}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.CloseNow() })
		return conn
	}
	gone, kept := dial(stolen), dial(e.tokens[model.RoleScreen])
	if err := revoke(e, id); err != nil {
		t.Fatal(err)
	}
	_, _, err = gone.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Fatalf("the revoked PC's stream ended with %v, want a policy-violation close", err)
	}
	if _, err := e.store.TakeTicket(ctx, "A", 0, "test"); err != nil {
		t.Fatal(err)
	}
	if _, b, err := kept.Read(ctx); err != nil || !bytes.Contains(b, []byte("A001")) {
		t.Fatalf("the allowed PC's stream: %s, %v", b, err)
	}
}

// Registering a token twice is a conflict, one sentence, nothing added.
func TestTerminalTokenRegisteredTwiceIsConflict(t *testing.T) {
	e := newEnv(t, Options{})
	before, _ := e.store.Terminals(context.Background())
	body := `{"name":"again","role":"screen","token_hash":"` + HashToken(e.tokens[model.RoleKiosk]) + `"}`
	status, b := e.call(t, "POST", "/api/v1/terminals", e.tokens[model.RoleManager], body)
	if status != http.StatusConflict || errCode(t, b) != "conflict" {
		t.Fatalf("a token registered twice: %d %s", status, b)
	}
	if after, _ := e.store.Terminals(context.Background()); len(after) != len(before) {
		t.Fatalf("%d terminals before, %d after", len(before), len(after))
	}
}
