package peer

import (
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
