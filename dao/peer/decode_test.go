package peer

import (
	"jiaohao/model"
	"net/http"
	"strings"
	"testing"
)

// Strict JSON at the door: unknown fields, trailing data, wrong types,
// bodies over 64 KiB and out-of-range values are 400 invalid_input and
// change nothing.
func TestStrictRequests(t *testing.T) {
	e := newEnv(t, Options{})
	big := `{"service":"A","priority":5` + strings.Repeat(" ", MaxBody) + `}`
	cases := []struct{ method, path, body string }{
		{"POST", "/api/v1/tickets", `{"service":"A","vip":true}`},
		{"POST", "/api/v1/tickets", `{"service":"A"} {"service":"A"}`},
		{"POST", "/api/v1/tickets", `{"service":"A","priority":"1"}`},
		{"POST", "/api/v1/tickets", `{"service":"A","priority":0.5}`},
		{"POST", "/api/v1/tickets", `{"service":"A","priority":10}`},
		{"POST", "/api/v1/tickets", `{"service":"a"}`},
		{"POST", "/api/v1/tickets", `{"service":"A"`},
		{"POST", "/api/v1/tickets", ``},
		{"POST", "/api/v1/tickets", big},
		{"POST", "/api/v1/tickets/abc/pass", ``},
		{"POST", "/api/v1/tickets/1/pass", `{"window":1000}`},
		{"POST", "/api/v1/windows/0/call", ``},
		{"POST", "/api/v1/windows/01x/call", ``},
		{"PUT", "/api/v1/windows/1/status", `{"status":"asleep"}`},
		{"PUT", "/api/v1/windows/1/services", `{"services":["A","A"]}`},
		{"PUT", "/api/v1/windows/1/services", `{"services":["A"],"allowed_only":"yes"}`},
		{"PUT", "/api/v1/windows/1/status", `{"status":"LUNCH break"}`},
		{"PUT", "/api/v1/windows/1", `{"name":"1号窗口","services":["A"],"allowed":["A","A"]}`},
		{"PUT", "/api/v1/settings/Not-A-Key", `{"value":"1"}`},
		{"PUT", "/api/v1/settings/call_timeout_s", `{"value":"1"}`},
		{"GET", "/api/v1/eventlog?since=-5", ``},
	}
	v := e.version(t)
	for _, c := range cases {
		status, b := e.call(t, c.method, c.path, e.tokens[model.RoleManager], c.body)
		if status != http.StatusBadRequest || errCode(t, b) != "invalid_input" {
			t.Errorf("%s %s %.60q: %d %s, want 400 invalid_input", c.method, c.path, c.body, status, b)
		}
	}
	if e.version(t) != v {
		t.Fatal("a refused request changed the queue")
	}
	// Exactly at the limit is still fine.
	ok := `{"service":"A"` + strings.Repeat(" ", MaxBody-len(`{"service":"A"}`)) + `}`
	if status, b := e.call(t, "POST", "/api/v1/tickets", e.tokens[model.RoleManager], ok); status != http.StatusCreated {
		t.Fatalf("64 KiB body: %d %s", status, b)
	}
}
