package peer

import (
	"context"
	"net"
	"net/http/httptest"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// Serve stops gracefully when its context ends: it returns without error
// and subscribers' streams end instead of hanging.
func TestServeGracefulShutdown(t *testing.T) {
	st := daotest.SQLite(t)
	token := addToken(t, st, model.RoleScreen, 0)
	srv := NewServer(st, st, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()

	c, err := Dial(context.Background(), "http://"+ln.Addr().String(), token)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	evs, err := c.Watch(wctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.TakeTicket(wctx, "A", 0, "test"); err != nil {
		t.Fatal(err)
	}
	if ev := <-evs; ev.Kind != model.EvTake {
		t.Fatalf("first event %+v", ev)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	// The stream broke; the client keeps retrying and every call says
	// the server is unreachable.
	if _, err := c.Snapshot(wctx); !IsUnreachable(err) {
		t.Fatalf("after shutdown: %v", err)
	}
}

// Over TLS the same client works, events included (wss).
func TestClientOverTLS(t *testing.T) {
	st := daotest.SQLite(t)
	token := addToken(t, st, model.RoleKiosk, 0)
	srv := NewServer(st, st, Options{})
	ts := httptest.NewTLSServer(srv.Handler())
	defer ts.Close()
	defer srv.Close()
	c, err := NewClient(ts.URL, token, ts.Client())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	evs, err := c.Watch(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := c.TakeTicket(ctx, "V", 0, "kiosk")
	if err != nil {
		t.Fatal(err)
	}
	if ev := <-evs; ev.TicketID != tk.ID {
		t.Fatalf("event %+v, want take of %d", ev, tk.ID)
	}
}
