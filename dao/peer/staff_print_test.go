package peer

import (
	"context"
	"encoding/json"
	"fmt"
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

// kioskID is the terminal id of the one kiosk named name.
func kioskID(t testing.TB, e *env, name string) int64 {
	t.Helper()
	ts, err := e.store.Terminals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	for _, term := range ts {
		if term.Role == model.RoleKiosk && term.Name == name {
			if id != 0 {
				t.Fatalf("two kiosks named %s", name)
			}
			id = term.ID
		}
	}
	if id == 0 {
		t.Fatalf("no kiosk named %s", name)
	}
	return id
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

// The handheld offers the branch's kiosks by id and name, saying which
// are offline, and never a revoked one or another role's terminal.
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
			if len(k) != 3 || k["id"].(float64) != float64(kioskID(t, e, k["name"].(string))) {
				t.Fatalf("a kiosk is shown as %v: its id, name and state only", k)
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
// ticket (404) and may not claim or list in K's id (403). An id that is
// no kiosk, or a kiosk given by name, takes no number.
func TestStaffTakePrintedAtKiosk(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	otherTok, otherTerm := addNamed(t, e, "K2", model.RoleKiosk)
	kid, k2 := kioskID(t, e, "kiosk"), otherTerm.ID
	c := signedIn(t, e)
	v0 := e.version(t)
	for _, body := range []string{`{"service":"A","kiosk":"kiosk"}`, `{"service":"A","kiosk":987654}`, `{"service":"A","kiosk":-2}`} {
		if resp, b := c.do(t, "POST", "/staff/api/tickets", body); resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("take %s: %d %s, want 400", body, resp.StatusCode, b)
		}
	}
	if e.version(t) != v0 {
		t.Fatal("a refused take changed the queue")
	}
	resp, b := c.do(t, "POST", "/staff/api/tickets", fmt.Sprintf(`{"service":"A","kiosk":%d}`, kid))
	var taken staffTicket
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(b, &taken) != nil || taken.PrintAt != "kiosk" || taken.PrintKiosk != kid || taken.PrintedAt != nil || taken.CustomerURL == "" {
		t.Fatalf("take for the kiosk: %d %s", resp.StatusCode, b)
	}
	other := dialAs(t, e, otherTok)
	if _, err := other.ClaimPrint(ctx, taken.ID, k2, "x"); !model.IsCode(err, model.ENotFound) {
		t.Fatalf("another kiosk claims it: %v, want not found", err)
	}
	if _, err := other.ClaimPrint(ctx, taken.ID, kid, "x"); !model.IsCode(err, model.EForbidden) {
		t.Fatalf("another kiosk claims in the kiosk's name: %v, want forbidden", err)
	}
	if _, err := other.PendingPrints(ctx, kid); !model.IsCode(err, model.EForbidden) {
		t.Fatalf("another kiosk lists the kiosk's prints: %v, want forbidden", err)
	}
	if p, err := other.PendingPrints(ctx, k2); err != nil || len(p) != 0 {
		t.Fatalf("K2's own prints: %v (%v), want none", p, err)
	}
	k := e.client(t, model.RoleKiosk)
	p, err := k.PendingPrints(ctx, kid)
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
			tk, err := k.ClaimPrint(ctx, taken.ID, kid, fmt.Sprint("c", i))
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
	if p, err := k.PendingPrints(ctx, kid); err != nil || len(p) != 0 {
		t.Fatalf("the kiosk's prints after the claim: %+v (%v)", p, err)
	}
}

// Two kiosks of one name (token add gives every kiosk the name "kiosk"
// unless told) are two kiosks: the page lists both by id, a take names
// one, the other neither lists nor claims it, and both keep taking.
func TestStaffKiosksOfOneName(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	first := kioskID(t, e, "kiosk")
	twinTok, twin := addNamed(t, e, "kiosk", model.RoleKiosk)
	c := signedIn(t, e)
	resp, b := c.do(t, "GET", "/staff/api/kiosks", "")
	var ks []staffKiosk
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &ks) != nil || len(ks) != 2 || ks[0].ID != first || ks[1].ID != twin.ID {
		t.Fatalf("kiosks: %d %s, want both kiosks named kiosk, by id", resp.StatusCode, b)
	}
	other := dialAs(t, e, twinTok)
	for round := 0; round < 2; round++ {
		resp, b := c.do(t, "POST", "/staff/api/tickets", fmt.Sprintf(`{"service":"A","kiosk":%d}`, first))
		var taken staffTicket
		if resp.StatusCode != http.StatusCreated || json.Unmarshal(b, &taken) != nil || taken.PrintKiosk != first {
			t.Fatalf("take %d for the first kiosk: %d %s", round, resp.StatusCode, b)
		}
		if p, err := other.PendingPrints(ctx, twin.ID); err != nil || len(p) != 0 {
			t.Fatalf("the twin lists %+v (%v), want none", p, err)
		}
		if _, err := other.ClaimPrint(ctx, taken.ID, twin.ID, "twin"); !model.IsCode(err, model.ENotFound) {
			t.Fatalf("the twin claims the first's print: %v, want not found", err)
		}
		if _, err := e.client(t, model.RoleKiosk).ClaimPrint(ctx, taken.ID, first, "own"); err != nil {
			t.Fatalf("the first kiosk claims its own: %v", err)
		}
	}
}

// A kiosk back after its customer gave up hears the ticket is out of line
// (its own code, not "printed already") and the ticket stays unclaimed.
func TestStaffPrintOfCancelledTicketRefused(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	kid := kioskID(t, e, "kiosk")
	c := signedIn(t, e)
	_, b := c.do(t, "POST", "/staff/api/tickets", fmt.Sprintf(`{"service":"A","kiosk":%d}`, kid))
	var taken staffTicket
	if err := json.Unmarshal(b, &taken); err != nil || taken.ID == 0 {
		t.Fatalf("take: %s", b)
	}
	if _, err := e.store.Cancel(ctx, taken.ID, 0); err != nil {
		t.Fatal(err)
	}
	k := e.client(t, model.RoleKiosk)
	if p, err := k.PendingPrints(ctx, kid); err != nil || len(p) != 0 {
		t.Fatalf("pending after the cancel: %+v (%v), want none", p, err)
	}
	if _, err := k.ClaimPrint(ctx, taken.ID, kid, "late"); !model.IsCode(err, model.EInvalidTransition) {
		t.Fatalf("claim of the cancelled ticket: %v, want invalid transition", err)
	}
	if got, err := e.store.Ticket(ctx, taken.ID); err != nil || got.PrintedAt != nil {
		t.Fatalf("cancelled ticket after the claim: %+v (%v)", got, err)
	}
}
