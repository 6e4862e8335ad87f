package peer

import (
	"context"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Reconnect delays grow, never exceed 5 s, and are jittered.
func TestBackoffBounded(t *testing.T) {
	seen := map[time.Duration]bool{}
	for attempt := 0; attempt < 30; attempt++ {
		for i := 0; i < 50; i++ {
			d := backoff(attempt)
			if d <= 0 || d > 5*time.Second {
				t.Fatalf("attempt %d: delay %v", attempt, d)
			}
			if attempt == 0 && d > 250*time.Millisecond {
				t.Fatalf("first retry waits %v", d)
			}
			seen[d] = true
		}
	}
	if len(seen) < 100 {
		t.Fatalf("only %d distinct delays: no jitter", len(seen))
	}
}

// A change written to the shared database by another PC (another Store on
// the same database, not through this server) still reaches subscribers.
func TestEventsFromAnotherWriter(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	open := func() *sqlstore.GormStore {
		st, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	e := newEnvOn(t, open(), Options{})
	other := open()
	c := e.client(t, model.RoleScreen)
	evs, err := c.Watch(ctx, e.version(t))
	if err != nil {
		t.Fatal(err)
	}
	tk, err := other.TakeTicket(ctx, "B", 0, "other-pc")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-evs:
		if ev.Kind != model.EvTake || ev.TicketID != tk.ID {
			t.Fatalf("got %+v, want the other PC's take", ev)
		}
	case <-ctx.Done():
		t.Fatal("the other writer's change never arrived")
	}
}
