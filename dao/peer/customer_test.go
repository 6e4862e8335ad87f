package peer

import (
	"bytes"
	"context"
	"io"
	"jiaohao/model"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

func getPage(t *testing.T, e *env, path, lang string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest("GET", e.ts.URL+path, nil)
	if lang != "" {
		req.Header.Set("Accept-Language", lang)
	}
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// The page speaks the customer's language, needs no token, shows only its
// own ticket, and knows nothing of unknown ids.
func TestCustomerPage(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	first, err := e.store.TakeTicket(ctx, "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	mine, err := e.store.TakeTicket(ctx, "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	status, zh, h := getPage(t, e, "/t/"+mine.PublicID, "zh-CN,zh;q=0.9,en;q=0.5")
	if status != http.StatusOK || !strings.Contains(zh, `lang="zh-CN"`) || !strings.Contains(zh, "个人业务") || !strings.Contains(zh, mine.Number) {
		t.Fatalf("zh page: %d\n%s", status, zh)
	}
	if !strings.Contains(zh, `"ahead":1`) {
		t.Fatalf("zh page does not say one person is ahead:\n%s", zh)
	}
	if strings.Contains(zh, first.Number) || strings.Contains(zh, first.PublicID) {
		t.Fatal("the page shows another customer's ticket")
	}
	if h.Get("Referrer-Policy") != "no-referrer" || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("missing protective headers: %v", h)
	}
	_, en, _ := getPage(t, e, "/t/"+mine.PublicID, "en-GB,en;q=0.9")
	if !strings.Contains(en, `lang="en"`) || !strings.Contains(en, "Ahead of you") {
		t.Fatalf("en page:\n%s", en)
	}
	if _, def, _ := getPage(t, e, "/t/"+mine.PublicID, ""); !strings.Contains(def, `lang="zh-CN"`) {
		t.Fatal("no Accept-Language should give Chinese")
	}
	for _, bad := range []string{"/t/0123456789abcdef0123456789abcdef", "/t/short", "/t/%3Cscript%3E"} {
		if status, body, _ := getPage(t, e, bad, "en"); status != http.StatusNotFound || !strings.Contains(body, "No such ticket") {
			t.Fatalf("%s: %d", bad, status)
		}
	}
}

// No log line carries a token, a customer id or a query string.
func TestLogsHoldNoSecrets(t *testing.T) {
	var buf bytes.Buffer
	e := newEnv(t, Options{Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	tk := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", e.tokens[model.RoleKiosk], `{"service":"A"}`)
	e.call(t, "GET", "/api/v1/eventlog?since=0&secret=xyz", e.tokens[model.RoleManager], "")
	e.call(t, "GET", "/api/v1/snapshot", "jh_wrong-token-value", "")
	getPage(t, e, "/t/"+tk.PublicID, "")
	log := buf.String()
	if !strings.Contains(log, "route=") {
		t.Fatalf("nothing logged: %q", log)
	}
	for _, secret := range []string{e.tokens[model.RoleKiosk], e.tokens[model.RoleManager], "jh_wrong-token-value", tk.PublicID, "xyz"} {
		if strings.Contains(log, secret) {
			t.Fatalf("log holds %q:\n%s", secret, log)
		}
	}
}
