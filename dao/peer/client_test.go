package peer

import (
	"context"
	"strings"
	"testing"

	"jiaohao/model"
)

// The client is a Store: a kiosk, a caller and a manager work through it
// as they would on the database.
func TestClientIsAStore(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	kiosk, caller, manager := e.client(t, model.RoleKiosk), e.client(t, model.RoleCaller), e.client(t, model.RoleManager)
	if kiosk.Engine() != "sqlite" {
		t.Fatalf("engine %q", kiosk.Engine())
	}
	tk, err := kiosk.TakeTicket(ctx, "A", 0, "kiosk")
	if err != nil || tk.Status != model.Waiting {
		t.Fatalf("take: %v %+v", err, tk)
	}
	if _, err := kiosk.CallNext(ctx, 1, ""); model.ErrorCode(err) != model.EForbidden {
		t.Fatalf("kiosk calling: %v", err)
	}
	called, err := caller.CallNext(ctx, 1, "")
	if err != nil || called.ID != tk.ID || called.Window != 1 {
		t.Fatalf("call: %v %+v", err, called)
	}
	if _, err := caller.CallNext(ctx, 2, ""); model.ErrorCode(err) != model.EForbidden {
		t.Fatalf("caller at window 2: %v", err)
	}
	if _, err := caller.StartServing(ctx, tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := caller.Pass(ctx, tk.ID, 1); model.ErrorCode(err) != model.EInvalidTransition {
		t.Fatalf("pass while serving: %v", err)
	}
	done, err := caller.Finish(ctx, tk.ID, 0)
	if err != nil || done.Status != model.Done {
		t.Fatalf("finish: %v %+v", err, done)
	}
	got, err := kiosk.TicketByPublicID(ctx, tk.PublicID)
	if err != nil || got.ID != tk.ID {
		t.Fatalf("by public id: %v", err)
	}
	if _, err := manager.SetWindowStatus(ctx, 3, model.WindowPaused); err != nil {
		t.Fatal(err)
	}
	if _, err := manager.CallNext(ctx, 3, ""); model.ErrorCode(err) != model.EWindowNotOpen {
		t.Fatalf("call at paused window: %v", err)
	}
	if err := manager.SetSetting(ctx, "notice", "今日办理对公业务请提前预约"); err != nil {
		t.Fatal(err)
	}
	st, err := caller.Settings(ctx)
	if err != nil || st.Notice != "今日办理对公业务请提前预约" {
		t.Fatalf("settings: %v %q", err, st.Notice)
	}
	svcs, err := kiosk.Services(ctx)
	if err != nil || len(svcs) < 3 {
		t.Fatalf("services: %v %v", err, svcs)
	}
	evs, err := kiosk.EventsSince(ctx, 0, 100)
	if err != nil || len(evs) == 0 {
		t.Fatalf("events: %v", err)
	}
	snap, err := kiosk.Snapshot(ctx)
	if err != nil || snap.Version != evs[len(evs)-1].Version {
		t.Fatalf("snapshot %d vs last event: %v", snap.Version, err)
	}
	if _, err := kiosk.Now(ctx); err != nil {
		t.Fatal(err)
	}
}

// While the server is down every call says so, and no number is made up.
func TestClientUnreachable(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	kiosk := e.client(t, model.RoleKiosk)
	if _, err := Dial(ctx, e.ts.URL, "jh_wrong"); model.ErrorCode(err) != model.EUnauthorized {
		t.Fatalf("dial with a wrong token: %v", err)
	}
	e.ts.Close()
	if _, err := kiosk.TakeTicket(ctx, "A", 0, "kiosk"); !IsUnreachable(err) || !strings.Contains(err.Error(), "branch server unreachable") {
		t.Fatalf("take while down: %v", err)
	}
	if _, err := kiosk.Snapshot(ctx); !IsUnreachable(err) {
		t.Fatalf("snapshot while down: %v", err)
	}
	if _, err := Dial(ctx, e.ts.URL, e.tokens[model.RoleKiosk]); !IsUnreachable(err) {
		t.Fatalf("dial while down: %v", err)
	}
	ch, err := kiosk.Watch(ctx, 0)
	if err != nil {
		t.Fatalf("watch while down must keep trying, got %v", err)
	}
	kiosk.Close()
	for range ch { // Close ends the watch
	}
	if _, err := NewClient("ftp://x", "t", nil); model.ErrorCode(err) != model.EInvalidInput {
		t.Fatalf("bad url: %v", err)
	}
}
