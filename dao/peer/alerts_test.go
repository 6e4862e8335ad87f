package peer

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"jiaohao/model"
)

// A kiosk's printer fault reaches a manager PC through the host as an
// alert in the snapshot and the event stream; only the manager may
// acknowledge it, once, and the host records who.
func TestAlertAcknowledgedOverPeer(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	kiosk, caller, mgr := e.client(t, model.RoleKiosk), e.client(t, model.RoleCaller), e.client(t, model.RoleManager)
	if err := kiosk.ReportDevice(ctx, "printer", "缺纸"); err != nil {
		t.Fatal(err)
	}
	snap, err := mgr.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Alerts) != 1 || snap.Alerts[0].Kind != model.AlertDevice || snap.Alerts[0].Terminal != "kiosk" {
		t.Fatalf("alerts over the wire %+v", snap.Alerts)
	}
	id := snap.Alerts[0].ID
	path := fmt.Sprintf("/api/v1/alerts/%d/ack", id)

	if _, err := caller.AckAlert(ctx, id); !model.IsCode(err, model.EForbidden) {
		t.Fatalf("a caller acknowledged: %v", err)
	}
	if status, _ := e.call(t, "POST", path, e.tokens[model.RoleScreen], ""); status != http.StatusForbidden {
		t.Fatalf("a screen got %d, want 403", status)
	}
	a, err := mgr.AckAlert(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if a.AckBy != "manager" || a.AckAt == nil || a.ID != id {
		t.Fatalf("acknowledged %+v, want by the manager's token", a)
	}
	status, body := e.call(t, "POST", path, e.tokens[model.RoleManager], "")
	if status != http.StatusConflict || errCode(t, body) != model.EInvalidTransition {
		t.Fatalf("second acknowledgement: %d %s", status, body)
	}
	if _, err := mgr.AckAlert(ctx, id+1000); !model.IsCode(err, model.ENotFound) {
		t.Fatalf("unknown alert: %v", err)
	}
	if status, _ := e.call(t, "POST", "/api/v1/alerts/x/ack", e.tokens[model.RoleManager], ""); status != http.StatusBadRequest {
		t.Fatalf("bad id: %d", status)
	}
	evs, err := mgr.EventsSince(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, ev := range evs {
		if ev.Alert != nil && ev.Alert.ID == id {
			kinds = append(kinds, ev.Kind+"@"+ev.Actor)
		}
	}
	if fmt.Sprint(kinds) != "[alert@kiosk alert_ack@manager]" {
		t.Fatalf("alert events in the log: %v", kinds)
	}
}

// A PC that only listens to the event stream is still seen: each ping
// refreshes its last-seen time (at most once a minute), so the sweeper
// does not take it for a PC gone and end its device alerts.
func TestListeningPCStaysSeen(t *testing.T) {
	e := newEnv(t, Options{PingEvery: 50 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // beyond waitFor's deadline
	defer cancel()
	url := "ws" + strings.TrimPrefix(e.ts.URL, "http") + "/api/v1/events"
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + e.tokens[model.RoleScreen]}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	go func() { _, _, _ = conn.Read(ctx) }() // answers the pings
	screen := func() model.Terminal {
		terms, err := e.store.Terminals(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, term := range terms {
			if term.Role == model.RoleScreen {
				return term
			}
		}
		t.Fatal("no screen terminal")
		return model.Terminal{}
	}
	waitFor(t, func() bool { return screen().LastSeen != nil }) // seen when it connected
	first := *screen().LastSeen
	// A minute goes by on this server's own clock, the stream still open.
	e.srv.seenMu.Lock()
	e.srv.seen[screen().ID] = time.Now().Add(-2 * time.Minute)
	e.srv.seenMu.Unlock()
	waitFor(t, func() bool { s := screen().LastSeen; return s != nil && s.After(first) })
}
