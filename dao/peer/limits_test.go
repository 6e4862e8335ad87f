package peer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"jiaohao/model"
)

// Repeated keys, keys in another case and anything after the object are
// refused before the body is decoded: encoding/json alone would take the
// last "service" and match "Service" to it.
func TestStrictKeys(t *testing.T) {
	e := newEnv(t, Options{TakePerMinute: -1})
	cases := []struct{ method, path, body string }{
		{"POST", "/api/v1/tickets", `{"service":"A","service":"B"}`},
		{"POST", "/api/v1/tickets", `{"service":"B","priority":5,"priority":1}`},
		{"POST", "/api/v1/tickets", `{"Service":"B"}`},
		{"POST", "/api/v1/tickets", `{"SERVICE":"B"}`},
		{"POST", "/api/v1/tickets", `{"service":"B","Priority":1}`},
		{"POST", "/api/v1/tickets", `{"ſervice":"B"}`}, // folds to "service" in encoding/json
		{"POST", "/api/v1/tickets", `{"service":"B"}x`},
		{"POST", "/api/v1/tickets", `{"service":"B"}[]`},
		{"POST", "/api/v1/tickets", `{"service":"B"}{}`},
		{"POST", "/api/v1/tickets", `{"service":"B"}"A"`},
		{"POST", "/api/v1/tickets", `null`},
		{"POST", "/api/v1/tickets", `["service","B"]`},
		{"POST", "/api/v1/windows/1/call", `{"service":"A","service":"B"}`},
		{"POST", "/api/v1/windows/1/call", `null`},
		{"POST", "/api/v1/tickets/1/pass", `{"window":1,"window":2}`},
		{"POST", "/api/v1/tickets/1/transfer", `{"service":"B","Service":"V"}`},
		{"PUT", "/api/v1/windows/1/status", `{"status":"open","Status":"closed"}`},
		{"PUT", "/api/v1/settings/notice", `{"value":"a","value":"b"}`},
		{"PUT", "/api/v1/services/B", `{"name":"对公","Name":"x","priority":5,"start_no":1,"enabled":true}`},
	}
	v := e.version(t)
	for _, c := range cases {
		status, b := e.call(t, c.method, c.path, e.tokens[model.RoleManager], c.body)
		if status != http.StatusBadRequest || errCode(t, b) != "invalid_input" {
			t.Errorf("%s %s %s: %d %s, want 400 invalid_input", c.method, c.path, c.body, status, b)
		}
	}
	if e.version(t) != v {
		t.Fatal("a refused request changed the queue")
	}
	// Exact keys in any order, with nested values skipped correctly, pass.
	tk := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", e.tokens[model.RoleManager], `{"priority":5, "service":"B"}`)
	if tk.Service != "B" {
		t.Fatalf("took %+v", tk)
	}
	must[model.Window](t, e, http.StatusOK, "PUT", "/api/v1/windows/4", e.tokens[model.RoleManager], `{"services":["A","B"],"name":"4号窗口"}`)
}

// The decoder and the store draw the same line at every limit: what one
// accepts the other accepts, and what one refuses the other refuses with
// the same sentence.
func TestDecoderAndStoreAgreeAtLimits(t *testing.T) {
	e := newEnv(t, Options{TakePerMinute: -1})
	ctx := context.Background()
	name := func(n int) string { return strings.Repeat("业", n) }
	svc := func(code, name string, prio, start, width, sort int) limitCase {
		return limitCase{
			label: fmt.Sprintf("service %s %q prio %d start %d width %d sort %d", code, name, prio, start, width, sort),
			http: func() (int, []byte) {
				return e.call(t, "PUT", "/api/v1/services/"+code, e.tokens[model.RoleManager],
					fmt.Sprintf(`{"name":%s,"priority":%d,"start_no":%d,"width":%d,"enabled":true,"sort_order":%d}`, jsonString(name), prio, start, width, sort))
			},
			store: func() error {
				_, err := e.store.SaveService(ctx, model.Service{Code: code, Name: name, Priority: prio, StartNo: start, Width: width, Enabled: true, SortOrder: sort})
				return err
			},
		}
	}
	win := func(n int, name string) limitCase {
		return limitCase{
			label: fmt.Sprintf("window %d %q", n, name),
			http: func() (int, []byte) {
				return e.call(t, "PUT", fmt.Sprintf("/api/v1/windows/%d", n), e.tokens[model.RoleManager], fmt.Sprintf(`{"name":%s,"services":["A"]}`, jsonString(name)))
			},
			store: func() error {
				_, err := e.store.SaveWindow(ctx, model.Window{Number: n, Name: name, Services: []string{"A"}})
				return err
			},
		}
	}
	fault := func(n int) limitCase {
		return limitCase{
			label: fmt.Sprintf("fault of %d characters", n),
			http: func() (int, []byte) {
				return e.call(t, "POST", "/api/v1/devices", e.tokens[model.RoleManager], fmt.Sprintf(`{"kind":"printer","fault":%q}`, name(n)))
			},
			store: func() error { return e.store.ReportDevice(ctx, "printer", name(n)) },
		}
	}
	term := func(n int) limitCase {
		return limitCase{
			label: fmt.Sprintf("terminal name of %d characters", n),
			http: func() (int, []byte) {
				return e.call(t, "POST", "/api/v1/terminals", e.tokens[model.RoleManager],
					fmt.Sprintf(`{"name":%q,"role":"screen","token_hash":%q}`, name(n), randomHash(t)))
			},
			store: func() error {
				_, err := e.store.AddTerminal(ctx, model.Terminal{Name: name(n), Role: "screen", TokenHash: randomHash(t)})
				return err
			},
		}
	}
	cases := []struct {
		c  limitCase
		ok bool
	}{
		{svc("C", name(model.MaxNameLen), 5, 1, 0, 0), true},
		{svc("C", name(model.MaxNameLen+1), 5, 1, 0, 0), false},
		{svc("C", "", 5, 1, 0, 0), false},
		{svc("C", "对公", 5, model.MinStartNo, 0, 0), true},
		{svc("C", "对公", 5, model.MaxStartNo, 0, 0), true},
		{svc("C", "对公", 5, model.MinStartNo-1, 0, 0), false},
		{svc("C", "对公", 5, model.MaxStartNo+1, 0, 0), false},
		{svc("C", "对公", 5, 100000, 0, 0), false},
		{svc("C", "对公", model.MinPriority, 1, 0, 0), true},
		{svc("C", "对公", model.MaxPriority, 1, 0, 0), true},
		{svc("C", "对公", model.MinPriority-1, 1, 0, 0), false},
		{svc("C", "对公", model.MaxPriority+1, 1, 0, 0), false},
		{svc("C", "对公", 5, 1, model.MaxWidth, 0), true},
		{svc("C", "对公", 5, 1, model.MaxWidth+1, 0), false},
		{svc("C", "对公", 5, 1, -1, 0), false},
		{svc("C", "对公", 5, 1, 0, model.MaxSortOrder), true},
		{svc("C", "对公", 5, 1, 0, -model.MaxSortOrder), true},
		{svc("C", "对公", 5, 1, 0, model.MaxSortOrder+1), false},
		{svc("ABCD", "四字前缀", 5, 1, 0, 0), true},
		{svc("ABCDE", "五字前缀", 5, 1, 0, 0), false},
		{svc("A1", "带数字", 5, 1, 0, 0), false},
		{svc("C", "名称\u0007", 5, 1, 0, 0), false},
		{win(model.MaxWindowNo, name(model.MaxNameLen)), true},
		{win(7, name(model.MaxNameLen+1)), false},
		{win(7, ""), false},
		{win(7, "  "), false},
		{win(7, "七号\n窗口"), false},
		{win(7, "\u202e口窗号七"), false}, // a bidi override would make the hall read it backwards
		{svc("C", "贵宾\u2066", 5, 1, 0, 0), false},
		{fault(model.MaxFaultLen), true},
		{fault(model.MaxFaultLen + 1), false},
		{term(model.MaxTerminalNameLen), true},
		{term(model.MaxTerminalNameLen + 1), false},
	}
	for _, tc := range cases {
		status, body := tc.c.http()
		httpOK := status < 300
		storeErr := tc.c.store()
		if httpOK != tc.ok || (storeErr == nil) != tc.ok {
			t.Errorf("%s: server %d %s, store %v; want accepted=%v by both", tc.c.label, status, body, storeErr, tc.ok)
			continue
		}
		if tc.ok {
			continue
		}
		if status != http.StatusBadRequest || errCode(t, body) != model.EInvalidInput || !model.IsCode(storeErr, model.EInvalidInput) {
			t.Errorf("%s: server %d %s, store %v; want invalid_input from both", tc.c.label, status, body, storeErr)
			continue
		}
		msg := errMessage(t, body)
		if msg != model.ErrorMessage(storeErr) {
			t.Errorf("%s: the server says %q, the store %q", tc.c.label, msg, model.ErrorMessage(storeErr))
		}
		if !strings.Contains(msg, "(") || !strings.ContainsFunc(msg, func(r rune) bool { return r > 0x2e80 }) {
			t.Errorf("%s: %q is not in both languages", tc.c.label, msg)
		}
	}
}

type limitCase struct {
	label string
	http  func() (int, []byte)
	store func() error
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func randomHash(t *testing.T) string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// A manager's token cannot make every kiosk write a file or print a
// command: the branch-wide printer names devices only, and shown text
// refuses control characters and bidi overrides.
func TestBranchSettingsRefuseFilesAndControls(t *testing.T) {
	e := newEnv(t, Options{})
	for _, c := range []struct{ key, value string }{
		{"printer", "file:/tmp/jiaohao-evil.bat"},
		{"printer", "file:C:/ProgramData/Microsoft/Windows/Start Menu/Programs/StartUp/x.bat"},
		{"ticket_footer", "谢谢\r\n@echo off"},
		{"ticket_footer", "\x1b\x70\x00cash drawer"},
		{"notice", "\u202e号叫"},
		{"customer_url", "javascript:alert(1)"},
	} {
		status, b := e.call(t, "PUT", "/api/v1/settings/"+c.key, e.tokens[model.RoleManager], fmt.Sprintf(`{"value":%s}`, jsonString(c.value)))
		if status != http.StatusBadRequest || errCode(t, b) != "invalid_input" {
			t.Errorf("%s=%q: %d %s, want 400 invalid_input", c.key, c.value, status, b)
		}
	}
	set, err := e.store.Settings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if set.Raw["printer"] != "" || set.Raw["ticket_footer"] != model.DefaultSettings["ticket_footer"] || set.Raw["notice"] != "" {
		t.Fatalf("a refused setting was stored: %v", set.Raw)
	}
	must[map[string]any](t, e, http.StatusOK, "PUT", "/api/v1/settings/printer", e.tokens[model.RoleManager], `{"value":"escpos+tcp://192.168.1.50:9100"}`)
}
