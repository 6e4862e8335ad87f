package peer

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"jiaohao/model"
)

// A caller's token switches its own window's services over the same route
// the manager uses, only among those the manager allowed (a service beyond
// them is 403 and changes nothing); another window's stays 403. The peer
// client's SwitchServices is held to the allowed list even with a manager's
// token, as the port says.
func TestCallerSwitchesOwnWindowServices(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	caller, manager := e.tokens[model.RoleCaller], e.tokens[model.RoleManager] // the caller is window 1
	must[model.Window](t, e, http.StatusOK, "PUT", "/api/v1/windows/1", manager, `{"name":"1号窗口","services":["A"],"allowed":["A","B"]}`)

	got := must[model.Window](t, e, http.StatusOK, "PUT", "/api/v1/windows/1/services", caller, `{"services":["B"]}`)
	if !slices.Equal(got.Services, []string{"B"}) || !slices.Equal(got.Allowed, []string{"A", "B"}) {
		t.Fatalf("own switch: %+v", got)
	}
	v := e.version(t)
	for _, c := range []struct{ path, body string }{
		{"/api/v1/windows/1/services", `{"services":["V"]}`},         // not allowed
		{"/api/v1/windows/1/services", `{"services":["A","V"]}`},     // one of them not allowed
		{"/api/v1/windows/2/services", `{"services":["A"]}`},         // another window
		{"/api/v1/windows/2/services", `{"services":["A","B","V"]}`}, // another window
	} {
		status, b := e.call(t, "PUT", c.path, caller, c.body)
		if status != http.StatusForbidden || errCode(t, b) != "forbidden" {
			t.Errorf("caller PUT %s %s: %d %s, want 403 forbidden", c.path, c.body, status, b)
		}
	}
	if e.version(t) != v {
		t.Fatal("a refused switch changed the queue")
	}
	// The manager gives any service, and allows it.
	got = must[model.Window](t, e, http.StatusOK, "PUT", "/api/v1/windows/1/services", manager, `{"services":["V"]}`)
	if !slices.Equal(got.Allowed, []string{"A", "B", "V"}) {
		t.Fatalf("manager's change: %+v", got)
	}

	for _, tc := range []struct {
		role   model.Role
		window int
		want   string // error code, "" ok
	}{
		{model.RoleCaller, 1, ""}, {model.RoleCaller, 2, model.EForbidden}, {model.RoleManager, 3, model.EForbidden},
	} {
		c, err := NewClient(e.ts.URL, e.tokens[tc.role], e.ts.Client())
		if err != nil {
			t.Fatal(err)
		}
		// Window 3 serves A, B and V, so V is allowed there; B alone
		// at window 1 is allowed too; window 2 is not the caller's.
		services := []string{"B"}
		if tc.window == 3 {
			must[model.Window](t, e, http.StatusOK, "PUT", "/api/v1/windows/3", manager, `{"name":"3号窗口","services":["A"],"allowed":[]}`)
		}
		_, err = c.SwitchServices(ctx, tc.window, services)
		if model.ErrorCode(err) != tc.want && !(tc.want == "" && err == nil) {
			t.Errorf("%s switching window %d to %v: %v, want %q", tc.role, tc.window, services, err, tc.want)
		}
	}
}

// Lunch is a window status on the wire ("lunch"), set by the caller for its
// own window and shown in the window list.
func TestLunchOnTheWire(t *testing.T) {
	e := newEnv(t, Options{})
	caller := e.tokens[model.RoleCaller]
	got := must[model.Window](t, e, http.StatusOK, "PUT", "/api/v1/windows/1/status", caller, `{"status":"lunch"}`)
	if got.Status != model.WindowLunch {
		t.Fatalf("status %v", got.Status)
	}
	ws := must[[]model.Window](t, e, http.StatusOK, "GET", "/api/v1/windows", caller, ``)
	if ws[0].Status.String() != "lunch" {
		t.Fatalf("window 1 on the wire: %+v", ws[0])
	}
	if status, b := e.call(t, "POST", "/api/v1/windows/1/call", caller, ``); status != http.StatusUnprocessableEntity {
		t.Fatalf("call at lunch: %d %s", status, b)
	}
}

// The manager's client sends an empty allowed list (only what the window
// serves) apart from none (keep what it allows).
func TestClientSavesAllowedList(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	c, err := NewClient(e.ts.URL, e.tokens[model.RoleManager], e.ts.Client())
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.SaveWindow(ctx, model.Window{Number: 2, Name: "2号窗口", Services: []string{"A"}, Allowed: []string{"A", "B"}})
	if err != nil || !slices.Equal(w.Allowed, []string{"A", "B"}) {
		t.Fatalf("widened: %+v %v", w, err)
	}
	if w, err = c.SaveWindow(ctx, model.Window{Number: 2, Name: "二号", Services: []string{"A"}}); err != nil || !slices.Equal(w.Allowed, []string{"A", "B"}) {
		t.Fatalf("no list kept it: %+v %v", w, err)
	}
	if w, err = c.SaveWindow(ctx, model.Window{Number: 2, Name: "2号窗口", Services: []string{"A"}, Allowed: []string{}}); err != nil || !slices.Equal(w.Allowed, []string{"A"}) {
		t.Fatalf("an empty list narrowed it: %+v %v", w, err)
	}
}
