package peer

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	"jiaohao/model"
)

// addNamed registers a terminal of role under name and returns its token.
func addNamed(t testing.TB, e *env, name string, role model.Role) (string, model.Terminal) {
	t.Helper()
	tok, hash, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	term, err := e.store.AddTerminal(context.Background(), model.Terminal{Name: name, Role: role, TokenHash: hash})
	if err != nil {
		t.Fatal(err)
	}
	return tok, term
}

func dialAs(t testing.TB, e *env, token string) *Client {
	t.Helper()
	c, err := Dial(context.Background(), e.ts.URL, token)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// The handheld offers the branch's kiosks by name, saying which are
// offline, and never a revoked one or another role's terminal.
func TestStaffKioskList(t *testing.T) {
	e := newEnv(t, Options{})
	addNamed(t, e, "K2", model.RoleKiosk)
	_, gone := addNamed(t, e, "K3", model.RoleKiosk)
	if err := e.store.RevokeTerminal(context.Background(), gone.ID); err != nil {
		t.Fatal(err)
	}
	c := signedIn(t, e)
	list := func() map[string]bool {
		resp, b := c.do(t, "GET", "/staff/api/kiosks", "")
		var ks []map[string]any
		if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &ks) != nil {
			t.Fatalf("kiosks: %d %s", resp.StatusCode, b)
		}
		out := map[string]bool{}
		for _, k := range ks {
			if len(k) != 2 {
				t.Fatalf("a kiosk is shown as %v: its name and state only", k)
			}
			out[k["name"].(string)] = k["online"].(bool)
		}
		return out
	}
	if got := list(); len(got) != 2 || got["kiosk"] || got["K2"] {
		t.Fatalf("kiosks before any was seen: %v, want kiosk and K2, both offline", got)
	}
	e.client(t, model.RoleKiosk) // the kiosk "kiosk" signs on
	if got := list(); len(got) != 2 || !got["kiosk"] || got["K2"] {
		t.Fatalf("kiosks after kiosk was seen: %v, want it online, K2 offline", got)
	}
}

// A number taken on the handheld for kiosk K is printed by K only: K
// lists it and claims it once; another kiosk is told it is not its
// ticket (404) and may not claim or list in K's name (403). A name that
// is no kiosk takes no number.
func TestStaffTakePrintedAtKiosk(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	otherTok, _ := addNamed(t, e, "K2", model.RoleKiosk)
	c := signedIn(t, e)
	v0 := e.version(t)
	for _, body := range []string{`{"service":"A","kiosk":"nobody"}`, `{"service":"A","kiosk":"caller"}`} {
		if resp, b := c.do(t, "POST", "/staff/api/tickets", body); resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("take %s: %d %s, want 400", body, resp.StatusCode, b)
		}
	}
	if e.version(t) != v0 {
		t.Fatal("a refused take changed the queue")
	}
	resp, b := c.do(t, "POST", "/staff/api/tickets", `{"service":"A","kiosk":"kiosk"}`)
	var taken staffTicket
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(b, &taken) != nil || taken.PrintAt != "kiosk" || taken.PrintedAt != nil || taken.CustomerURL == "" {
		t.Fatalf("take for the kiosk: %d %s", resp.StatusCode, b)
	}
	other := dialAs(t, e, otherTok)
	if _, err := other.ClaimPrint(ctx, taken.ID, "K2"); !model.IsCode(err, model.ENotFound) {
		t.Fatalf("another kiosk claims it: %v, want not found", err)
	}
	if _, err := other.ClaimPrint(ctx, taken.ID, "kiosk"); !model.IsCode(err, model.EForbidden) {
		t.Fatalf("another kiosk claims in the kiosk's name: %v, want forbidden", err)
	}
	if _, err := other.PendingPrints(ctx, "kiosk"); !model.IsCode(err, model.EForbidden) {
		t.Fatalf("another kiosk lists the kiosk's prints: %v, want forbidden", err)
	}
	if p, err := other.PendingPrints(ctx, "K2"); err != nil || len(p) != 0 {
		t.Fatalf("K2's own prints: %v (%v), want none", p, err)
	}
	k := e.client(t, model.RoleKiosk)
	p, err := k.PendingPrints(ctx, "kiosk")
	if err != nil || len(p) != 1 || p[0].ID != taken.ID {
		t.Fatalf("the kiosk's prints: %+v (%v), want %s", p, err, taken.Number)
	}
	// Four claims at once (the kiosk after a reconnect racing itself):
	// exactly one wins.
	var wg sync.WaitGroup
	var mu sync.Mutex
	won, printed := 0, 0
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tk, err := k.ClaimPrint(ctx, taken.ID, "kiosk")
			mu.Lock()
			defer mu.Unlock()
			if err == nil && tk.PrintedAt != nil && tk.Number == taken.Number {
				won++
			} else if model.IsCode(err, model.EConflict) {
				printed++
			} else {
				t.Errorf("claim: %+v %v", tk, err)
			}
		}()
	}
	wg.Wait()
	if won != 1 || printed != 3 {
		t.Fatalf("%d claims won and %d were told printed, want 1 and 3", won, printed)
	}
	if p, err := k.PendingPrints(ctx, "kiosk"); err != nil || len(p) != 0 {
		t.Fatalf("the kiosk's prints after the claim: %+v (%v)", p, err)
	}
}
