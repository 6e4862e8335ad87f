package peer

import (
	"context"
	"maps"
	"net/http"
	"testing"

	"jiaohao/model"
)

// A kiosk that reaches the host gets the host's estimates before a take;
// a host whose store gives none says so with 404 and a sentence.
func TestNextPositionsOverPeer(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	for range 5 {
		if _, err := e.store.TakeTicket(ctx, "A", 0, "test"); err != nil {
			t.Fatal(err)
		}
	}
	want, err := e.store.NextPositions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.client(t, model.RoleKiosk).NextPositions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) || got["A"].Ahead != 5 {
		t.Fatalf("over the peer %v, the store %v", got, want)
	}

	bare := newEnvServing(t, struct{ model.Store }{e.store}, e.store, Options{})
	code, body := bare.call(t, http.MethodGet, "/api/v1/positions/next", bare.tokens[model.RoleKiosk], "")
	if code != http.StatusNotFound || errMessage(t, body) == "" {
		t.Fatalf("a store without estimates: %d %s", code, body)
	}
}
