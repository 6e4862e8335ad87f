package peer

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"jiaohao/model"
)

// A take's answer says where the number stood when taken, the take's own
// estimate: with nothing happening in between it is what the position
// route says right after, and kiosks taking at once each get their own
// ticket's place, none lost to another kiosk's take.
func TestTakeAnswersItsOwnPosition(t *testing.T) {
	e := newEnv(t, Options{TakePerMinute: -1})
	tok := e.tokens[model.RoleManager]
	for want := 0; want < 3; want++ {
		tk := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", tok, `{"service":"A"}`)
		pos := must[model.Position](t, e, http.StatusOK, "GET", "/api/v1/tickets/"+strconv.FormatInt(tk.ID, 10)+"/position", tok, "")
		if tk.Ahead != want || tk.Ahead != pos.Ahead || tk.ETASeconds != pos.ETASeconds || tk.NoWindow != pos.NoWindow {
			t.Fatalf("take %d answered ahead %d, eta %d s; its position says %+v", want+1, tk.Ahead, tk.ETASeconds, pos)
		}
	}
	const kiosks = 16
	var wg sync.WaitGroup
	answers := make([]Ticket, kiosks)
	for i := range answers {
		wg.Go(func() {
			status, b := e.call(t, "POST", "/api/v1/tickets", tok, `{"service":"A"}`)
			if status != http.StatusCreated || json.Unmarshal(b, &answers[i]) != nil {
				t.Errorf("a concurrent take: %d %s", status, b)
			}
		})
	}
	wg.Wait()
	seen := map[int64]bool{}
	for _, a := range answers {
		// Three were waiting before; a kiosk's own number is never ahead
		// of itself, and at most the others taken at once are.
		if seen[a.ID] || a.Status != model.Waiting || a.Ahead < 3 || a.Ahead > 3+kiosks-1 || a.ETASeconds < 0 {
			t.Errorf("a concurrent take answered %+v", a)
		}
		seen[a.ID] = true
	}
}

// A kiosk's slip asks its number's position at once: the take's answer
// already said it, so the PC asks the host nothing more. Later asks, and
// another ticket's, go to the host.
func TestKioskSlipPositionFromTheTake(t *testing.T) {
	e := newEnv(t, Options{TakePerMinute: -1})
	ctx := context.Background()
	c, err := Dial(ctx, e.ts.URL, e.tokens[model.RoleKiosk])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	first, err := c.TakeTicket(ctx, "A", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	tk, err := c.TakeTicket(ctx, "A", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	e.ts.Close() // the host is gone: only the take's answer can say
	pos, err := c.Position(ctx, tk.ID)
	if err != nil || pos.Ahead != 1 {
		t.Fatalf("the slip's position: %+v, %v; want the take's answer, 1 ahead", pos, err)
	}
	if _, err := c.Position(ctx, tk.ID); !IsUnreachable(err) {
		t.Fatalf("a second ask: %v, want it sent to the (gone) host", err)
	}
	if _, err := c.Position(ctx, first.ID); !IsUnreachable(err) {
		t.Fatalf("an earlier ticket's position: %v, want it sent to the host", err)
	}
}
