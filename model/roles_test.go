package model

import "testing"

// The table is well formed: names unique and non-empty, each row with both
// translation keys, and a role bound to a window either able to act for it
// or only watching it (the window screen).
func TestRoleTable(t *testing.T) {
	seen := map[Role]bool{}
	for _, s := range Roles() {
		if s.Role == "" || seen[s.Role] {
			t.Errorf("role %q is empty or listed twice", s.Role)
		}
		seen[s.Role] = true
		if s.Label == "" || s.Title == "" {
			t.Errorf("%s has no label or title key", s.Role)
		}
		if got, ok := s.Role.Spec(); !ok || got != s {
			t.Errorf("%s: Spec gives %+v, %v", s.Role, got, ok)
		}
		// The rating pad also records and reads its customers' ratings of
		// what its window finished, which changes no ticket.
		if s.Window && !s.Role.May(PermAct) && s.Perms&^(PermRate|PermRatings) != PermObserve {
			t.Errorf("%s is bound to a window, may not act for it, yet may more than watch and rate it", s.Role)
		}
		// Head office's role reads the branches' overview lines only,
		// no branch's queue; every other role shows its branch's.
		if s.HeadOffice {
			if s.Perms != PermOverview || s.Window || s.Printer || s.Voice || s.Source != "" {
				t.Errorf("%s belongs to no branch, yet may more than read the overview: %+v", s.Role, s)
			}
		} else if !s.Role.May(PermObserve) || s.Role.May(PermOverview) {
			t.Errorf("%s may not read the queue it shows, or reads every branch's overview", s.Role)
		}
	}
	for _, r := range []Role{RoleKiosk, RoleCaller, RoleScreen, RoleCounter, RoleManager} {
		if !seen[r] {
			t.Errorf("the design's role %s is not in the table", r)
		}
	}
}

// May asks the table; a name outside it may do nothing, and a request
// that needs no permission at all is not one a token is asked about.
func TestRoleMay(t *testing.T) {
	for _, c := range []struct {
		role Role
		p    Permission
		want bool
	}{
		{RoleKiosk, PermTake, true}, {RoleKiosk, PermAct, false},
		{RoleCaller, PermAct, true}, {RoleCaller, PermManage, false},
		{RoleCaller, PermTake, true}, // 窗口代取: the clerk takes a number for a customer (issue 13)
		{RoleScreen, PermObserve, true}, {RoleScreen, PermTake, false},
		{RoleManager, PermManage, true}, {RoleManager, PermTake | PermAct, true},
		{"cashier", PermObserve, false}, {"", PermObserve, false}, {RoleManager, 0, false},
		// The floor staff's handheld takes numbers and requeues passed
		// ones, but is no window and manages nothing.
		{RoleHandheld, PermTake | PermFloor, true}, {RoleHandheld, PermAct, false}, {RoleHandheld, PermManage, false},
		// The window screen shows its window and does nothing else.
		{RoleCounter, PermObserve, true}, {RoleCounter, PermAct, false}, {RoleCounter, PermTake, false}, {RoleCounter, PermManage, false},
		// The rating pad watches its window and rates what it finished,
		// nothing else; no other role rates for a customer.
		{RoleEvaluator, PermObserve | PermRate, true}, {RoleEvaluator, PermAct, false}, {RoleEvaluator, PermTake, false},
		{RoleEvaluator, PermManage, false}, {RoleCaller, PermRate, false}, {RoleManager, PermRate, false}, {RoleCounter, PermRate, false},
		{RoleManager, PermRatings, true}, {RoleKiosk, PermRatings, false}, {RoleCaller, PermRatings, false},
		// Head office reads every branch's overview and nothing of any
		// branch's queue; a branch's manager sees only their own.
		{RoleHQ, PermOverview, true}, {RoleHQ, PermObserve, false}, {RoleHQ, PermTake, false}, {RoleHQ, PermAct, false},
		{RoleHQ, PermManage, false}, {RoleManager, PermOverview, false},
	} {
		if got := c.role.May(c.p); got != c.want {
			t.Errorf("%q may %b: %v, want %v", c.role, c.p, got, c.want)
		}
	}
	if Role("cashier").Valid() || !RoleScreen.Valid() {
		t.Error("Valid does not follow the table")
	}
}

// A ticket's source comes from the role that took it: a caller's is the
// window's.
func TestTicketSource(t *testing.T) {
	for r, want := range map[Role]string{RoleKiosk: SourceKiosk, RoleCaller: SourceWindow, RoleManager: "manager", RoleHandheld: SourceHandheld, "cashier": "cashier"} {
		if got := r.TicketSource(); got != want {
			t.Errorf("%s takes tickets as %q, want %q", r, got, want)
		}
	}
}

func TestRoleNames(t *testing.T) {
	if got := RoleNames(", ", " or "); got != "kiosk, caller, screen, counter, evaluator, manager, handheld or hq" {
		t.Errorf("RoleNames: %q", got)
	}
	if got := RoleNames("、", " 或 "); got != "kiosk、caller、screen、counter、evaluator、manager、handheld 或 hq" {
		t.Errorf("RoleNames zh: %q", got)
	}
}

// The handheld runs in a browser at the host's staff page, so a PC's setup
// offers the desktop roles only, in the table's order.
func TestDesktopRoles(t *testing.T) {
	var got []Role
	for _, s := range DesktopRoles() {
		got = append(got, s.Role)
	}
	want := []Role{RoleKiosk, RoleCaller, RoleScreen, RoleCounter, RoleEvaluator, RoleManager, RoleHQ}
	if len(got) != len(want) {
		t.Fatalf("desktop roles %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("desktop roles %v, want %v", got, want)
		}
	}
	if s, _ := RoleHandheld.Spec(); s.Desktop() || s.Page != "/staff" {
		t.Errorf("handheld row: %+v", s)
	}
}

// The desktop program's --role names the roles a PC runs, never one that
// runs in a browser.
func TestDesktopRoleNames(t *testing.T) {
	if got := DesktopRoleNames(", ", " or "); got != "kiosk, caller, screen, counter, evaluator, manager or hq" {
		t.Errorf("DesktopRoleNames: %q", got)
	}
}
