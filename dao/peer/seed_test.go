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

// Seed 002 §5.1 over HTTP: 30 numbers taken, then three windows each call
// ten times at once. Every call gets a different ticket, and the database
// says exactly what the responses said.
func TestSeedMorningRushOverHTTP(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	taken := map[int64]string{}
	for i := 0; i < 30; i++ {
		tk := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", e.tokens[model.RoleKiosk], `{"service":"A","priority":5}`)
		if tk.Status != model.Waiting || tk.Service != "A" || len(tk.PublicID) < 22 {
			t.Fatalf("take %d: %+v", i, tk)
		}
		taken[tk.ID] = tk.Number
	}
	if len(taken) != 30 {
		t.Fatalf("30 takes gave %d distinct tickets", len(taken))
	}
	callers := map[int]string{1: e.tokens[model.RoleCaller], 2: addToken(t, e.store, model.RoleCaller, 2), 3: addToken(t, e.store, model.RoleCaller, 3)}

	type result struct {
		window int
		t      Ticket
	}
	results := make(chan result, 30)
	var wg sync.WaitGroup
	for w := 1; w <= 3; w++ {
		for j := 0; j < 10; j++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, b := e.call(t, "POST", fmt.Sprintf("/api/v1/windows/%d/call", w), callers[w], "")
				if status != http.StatusOK {
					t.Errorf("window %d call: %d %s", w, status, b)
					return
				}
				var tk Ticket
				if err := json.Unmarshal(b, &tk); err != nil {
					t.Error(err)
					return
				}
				results <- result{w, tk}
			}()
		}
	}
	wg.Wait()
	close(results)

	called := map[int64]int{} // ticket -> window that got it
	for r := range results {
		if prev, dup := called[r.t.ID]; dup {
			t.Fatalf("ticket %s called by windows %d and %d", r.t.Number, prev, r.window)
		}
		if _, ok := taken[r.t.ID]; !ok || r.t.Status != model.Called || r.t.Window != r.window {
			t.Fatalf("window %d got %+v", r.window, r.t)
		}
		called[r.t.ID] = r.window
	}
	if len(called) != 30 {
		t.Fatalf("%d distinct tickets called, want 30", len(called))
	}
	// The database agrees with every answer.
	for id, w := range called {
		tk, err := e.store.Ticket(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if tk.Status != model.Called || tk.Window != w {
			t.Fatalf("db has %s %v at window %d, answer said called at %d", tk.Number, tk.Status, tk.Window, w)
		}
	}
	snap := must[model.Snapshot](t, e, http.StatusOK, "GET", "/api/v1/snapshot", e.tokens[model.RoleScreen], "")
	for _, s := range snap.Services {
		if s.Code == "A" && s.Waiting != 0 {
			t.Fatalf("%d still waiting for A", s.Waiting)
		}
	}
	var n int64
	if err := e.store.DB().Raw("SELECT COUNT(*) FROM ticket WHERE status = ?", int(model.Called)).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	if n != 30 {
		t.Fatalf("%d tickets with status called, want 30", n)
	}
	// The call log holds exactly the answered calls, and each window's
	// current ticket is its last call in commit order.
	evs, err := e.store.EventsSince(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	lastCall, calls := map[int]int64{}, 0
	for _, ev := range evs {
		if ev.Kind != model.EvCall {
			continue
		}
		calls++
		if called[ev.TicketID] != ev.Window {
			t.Fatalf("log: ticket %d called at %d, answers said %d", ev.TicketID, ev.Window, called[ev.TicketID])
		}
		lastCall[ev.Window] = ev.TicketID
	}
	if calls != 30 {
		t.Fatalf("log has %d calls, want 30", calls)
	}
	for _, ws := range snap.Windows {
		if ws.Number <= 3 && ws.CurrentID != lastCall[ws.Number] {
			t.Fatalf("window %d holds ticket %d, its last call was %d", ws.Number, ws.CurrentID, lastCall[ws.Number])
		}
	}
	// The queue is empty now: the next call says so.
	status, b := e.call(t, "POST", "/api/v1/windows/1/call", e.tokens[model.RoleCaller], "")
	if status != http.StatusNotFound || errCode(t, b) != model.EQueueEmpty {
		t.Fatalf("empty queue call: %d %s", status, b)
	}
}
