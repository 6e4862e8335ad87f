package peer

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"jiaohao/dao/daotest"

	"jiaohao/model"
)

// A clerk through the peer client: the manager adds the account, the
// caller signs in at its own window (never another), the window's clerk
// reaches the snapshot, a wrong password keeps its own code over the
// wire, and bad input is refused before the store with nothing added.
func TestClerksThroughThePeer(t *testing.T) {
	var logs daotest.LogBuffer
	e := newEnv(t, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	ctx := context.Background()
	mgr, caller := e.client(t, model.RoleManager), e.client(t, model.RoleCaller)
	if _, err := mgr.AddStaff(ctx, model.Staff{Number: "8101", Name: "高远", Services: []string{"A"}}, "clerk-pass"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []model.Staff{{Number: "", Name: "甲"}, {Number: "8101", Name: "乙"}, {Number: "8102", Name: "一二三四五六七八九十一二三四五六七八九十一"}} {
		_, err := mgr.AddStaff(ctx, bad, "clerk-pass")
		if c := model.ErrorCode(err); c != model.EInvalidInput && c != model.EConflict {
			t.Errorf("add %+v: %v (%s)", bad, err, c)
		}
	}
	if list, err := mgr.StaffList(ctx); err != nil || len(list) != 1 {
		t.Fatalf("staff after bad input %+v, %v", list, err)
	}
	if _, err := caller.AddStaff(ctx, model.Staff{Number: "8103", Name: "丙"}, "clerk-pass"); model.ErrorCode(err) != model.EForbidden {
		t.Fatalf("a caller added staff: %v", err)
	}
	if _, err := caller.SignIn(ctx, 1, "8101", "wrong-pass"); model.ErrorCode(err) != model.EWrongPassword {
		t.Fatalf("wrong password: %v (%s)", err, model.ErrorCode(err))
	}
	if _, err := caller.SignIn(ctx, 2, "8101", "clerk-pass"); model.ErrorCode(err) != model.EForbidden {
		t.Fatalf("sign-in at another window: %v", err)
	}
	w, err := caller.SignIn(ctx, 1, "8101", "clerk-pass")
	if err != nil || w.Clerk == nil || w.Clerk.Number != "8101" {
		t.Fatalf("sign-in: %+v, %v", w.Clerk, err)
	}
	snap, err := caller.Snapshot(ctx)
	if err != nil || snap.Windows[0].Clerk == nil || snap.Windows[0].Clerk.Name != "高远" {
		t.Fatalf("snapshot clerk %+v, %v", snap.Windows[0].Clerk, err)
	}
	if _, err := caller.TakeTicket(ctx, "A", 0, model.SourceWindow); err != nil {
		t.Fatal(err)
	}
	if _, err := caller.CallNext(ctx, 1, ""); err != nil {
		t.Fatal(err)
	}
	evs, err := caller.EventsSince(ctx, snap.Version, 10)
	if err != nil || len(evs) != 2 || evs[1].Kind != model.EvCall || evs[1].StaffID != w.Clerk.ID || evs[0].StaffID != 0 {
		t.Fatalf("events over the wire %+v, %v: the call names the clerk, the take nobody", evs, err)
	}
	f, err := caller.StaffToday(ctx, 1)
	if err != nil || f.Staff.Number != "8101" || f.Served != 0 || f.AvgRating != nil {
		t.Fatalf("today %+v, %v", f, err)
	}
	if _, err := mgr.SetStaffEnabled(ctx, "8101", false); err != nil {
		t.Fatal(err)
	}
	if _, err := caller.SignIn(ctx, 1, "8101", "clerk-pass"); model.ErrorCode(err) != model.EStaffDisabled {
		t.Fatalf("disabled sign-in: %v", err)
	}
	if w, err := caller.SignOut(ctx, 1); err != nil || w.Clerk != nil {
		t.Fatalf("sign-out %+v, %v", w.Clerk, err)
	}
	// The request log has the sign-ins but never a password.
	if l := logs.String(); !strings.Contains(l, "/clerk") || strings.Contains(l, "clerk-pass") || strings.Contains(l, "wrong-pass") {
		t.Fatalf("request log:\n%s", l)
	}
}

// A password reset answers 204 with no body: it used to answer a made-up
// account holding only the number, enabled false and no services, which
// a client would take for the account's state.
func TestClerkPasswordResetAnswersNoAccount(t *testing.T) {
	e := newEnv(t, Options{})
	if _, err := e.store.AddStaff(context.Background(), model.Staff{Number: "8201", Name: "严宽"}, "clerk-pass"); err != nil {
		t.Fatal(err)
	}
	status, body := e.call(t, "PUT", "/api/v1/clerks/8201/password", e.tokens[model.RoleManager], `{"password":"new-pass-1"}`)
	if status != http.StatusNoContent || len(bytes.TrimSpace(body)) != 0 {
		t.Fatalf("reset answered %d %q, want 204 and no body", status, body)
	}
	if err := e.client(t, model.RoleManager).ResetStaffPassword(context.Background(), "8201", "new-pass-2"); err != nil {
		t.Fatalf("the client's reset: %v", err)
	}
	if _, err := e.store.SignIn(context.Background(), 1, "8201", "new-pass-2"); err != nil {
		t.Fatalf("the new password: %v", err)
	}
}
