package model

import "strings"

// Role is what a PC runs; a terminal's token carries it. The table below
// is the one list of roles: a new role is a row here, its screen (screens/
// and the program's map of role to screen in app/) or the page of the host
// it signs in to (Page), and its names in assets/lang.
type Role string

// The roles of the table.
const (
	RoleKiosk  Role = "kiosk"  // customers take numbers
	RoleCaller Role = "caller" // a clerk at one window
	RoleScreen Role = "screen" // the hall's wall display and voice
	// RoleCounter is the window screen (窗口屏) above or beside one
	// window: its number, status and clerk. It only watches; its token is
	// bound to its window like the caller's.
	RoleCounter Role = "counter"
	RoleManager Role = "manager" // the branch manager
	// RoleHandheld is a floor walker's phone or tablet (员工手持终端, seed
	// 000): it opens the host's staff page in its browser and signs in
	// with its token.
	RoleHandheld Role = "handheld"
	// RoleEvaluator is the rating pad (评价器) facing the customer at one
	// window: it shows the clerk's card and, after each finish there, the
	// rating buttons. Its token is bound to its window like the caller's;
	// it watches and rates, nothing else.
	RoleEvaluator Role = "evaluator"
	// RoleHQ is head office's overview (总行/总部): the regional manager's
	// PC watching every branch of the database at once. Its token belongs
	// to no branch (RoleSpec.HeadOffice): it reads the branches' overview
	// lines and nothing of any one branch's queue.
	RoleHQ Role = "hq"
)

// Permission is a kind of request a role's token may make of the peer
// server; a route needs one.
type Permission uint16

const (
	// PermObserve reads the queue, its settings and events, and reports
	// the PC's own devices.
	PermObserve Permission = 1 << iota
	// PermTake takes a number.
	PermTake
	// PermAct calls and acts on tickets, opens and pauses a window and
	// runs the timers. A role bound to a window acts for that window only.
	PermAct
	// PermManage changes services, windows, settings and terminals, reads
	// reports, and acts for any window.
	PermManage
	// PermFloor requeues or cancels a passed ticket of any window for a
	// customer who came back to the hall (FloorWindow): the floor is no
	// window, so it calls, serves and drops nobody's waiting ticket.
	PermFloor
	// PermPrint claims and prints at this kiosk a number taken elsewhere
	// for a customer (a handheld's), one the ticket names this kiosk for.
	PermPrint
	// PermRate records a customer's rating of a ticket finished at the
	// role's own window.
	PermRate
	// PermRatings reads a ticket's rating, the customer's own words: the
	// manager any, the rating pad its own window's.
	PermRatings
	// PermOverview reads every branch's line of head office's overview
	// (waiting, serving, open windows, longest wait, alerts, faults), and
	// nothing else of any branch.
	PermOverview
)

// RoleSpec is one row of the role table.
type RoleSpec struct {
	Role Role
	// Label and Title are translation keys (assets/lang): the role's name,
	// and its window's title ({{.N}} is the window number).
	Label, Title string
	Perms        Permission
	// Window: the role belongs to one window, whose number it must be
	// given: it acts for that window only (the caller), or only shows it
	// (the window screen, which may not act).
	Window bool
	// Printer: the role prints the tickets it takes, on the branch's
	// printer or one of its own.
	Printer bool
	// OwnPrinter: the role prints the tickets it takes only when its PC
	// has a printer of its own (the branch's printer hangs on the kiosk).
	OwnPrinter bool
	// Source is what a ticket the role takes records as its source
	// (ticket.source and the report's count by source); the peer server
	// sets it from the token, never from the request.
	Source string
	// Voice: the role announces calls in the hall.
	Voice bool
	// Page is the path of the host's web page the role runs in, on a
	// phone or tablet's browser; such a role has no desktop screen, and
	// the PC setup does not offer it.
	Page string
	// HeadOffice: the role belongs to no branch. Its token is head
	// office's, stored apart from every branch's terminals, so no branch's
	// authentication ever takes it for one of its own; it reaches the
	// branches' overview through a host serving every branch (serve
	// --branch all), never a branch's queue.
	HeadOffice bool
}

// Desktop reports whether the role runs as the desktop program on a PC.
func (s RoleSpec) Desktop() bool { return s.Page == "" }

var roles = []RoleSpec{
	{Role: RoleKiosk, Label: "role.kiosk", Title: "title.kiosk", Perms: PermObserve | PermTake | PermPrint, Printer: true, Source: SourceKiosk},
	// A clerk takes a number for a customer at the window (窗口代取, seed 003 §2.1).
	{Role: RoleCaller, Label: "role.caller", Title: "title.caller", Perms: PermObserve | PermTake | PermAct, Window: true, OwnPrinter: true, Source: SourceWindow},
	{Role: RoleScreen, Label: "role.screen", Title: "title.screen", Perms: PermObserve, Voice: true},
	{Role: RoleCounter, Label: "role.counter", Title: "title.counter", Perms: PermObserve, Window: true},
	{Role: RoleEvaluator, Label: "role.evaluator", Title: "title.evaluator", Perms: PermObserve | PermRate | PermRatings, Window: true},
	{Role: RoleManager, Label: "role.manager", Title: "title.manager", Perms: PermObserve | PermTake | PermAct | PermManage | PermFloor | PermRatings, Source: string(RoleManager)},
	// Staff on the floor take a number for a customer and requeue one who
	// came back after being passed (seed 000 §6).
	{Role: RoleHandheld, Label: "role.handheld", Title: "title.handheld", Perms: PermObserve | PermTake | PermFloor, Source: SourceHandheld, Page: "/staff"},
	{Role: RoleHQ, Label: "role.hq", Title: "title.hq", Perms: PermOverview, HeadOffice: true},
}

// Ticket sources (ticket.source): where a number was taken.
const (
	SourceKiosk  = "kiosk"  // by a customer at the kiosk
	SourceWindow = "window" // by a clerk at a window, for a customer
	// SourceHandheld: by floor staff on a handheld, for a customer.
	SourceHandheld = "handheld"
)

// TicketSource is the source of the tickets r's token takes: its row's,
// else the role's name.
func (r Role) TicketSource() string {
	if s, ok := r.Spec(); ok && s.Source != "" {
		return s.Source
	}
	return string(r)
}

// Roles is the whole table, in its order (DesktopRoles is what a PC runs).
func Roles() []RoleSpec { return append([]RoleSpec(nil), roles...) }

// DesktopRoles are the rows that run as the desktop program, in the
// table's order: what a PC's setup offers.
func DesktopRoles() []RoleSpec {
	var out []RoleSpec
	for _, s := range roles {
		if s.Desktop() {
			out = append(out, s)
		}
	}
	return out
}

// Spec is r's row of the table; ok is false for a name not in it.
func (r Role) Spec() (spec RoleSpec, ok bool) {
	for _, s := range roles {
		if s.Role == r {
			return s, true
		}
	}
	return RoleSpec{}, false
}

// Valid reports whether r is a role of the table.
func (r Role) Valid() bool { _, ok := r.Spec(); return ok }

// May reports whether r's token may make requests that need p; a name
// not in the table may make none.
func (r Role) May(p Permission) bool {
	s, ok := r.Spec()
	return ok && p != 0 && s.Perms&p == p
}

// RoleNames lists the roles' names for a sentence: sep between them and
// last before the last one ("kiosk, caller or screen").
func RoleNames(sep, last string) string { return roleNames(roles, sep, last) }

// DesktopRoleNames lists the roles a PC runs (DesktopRoles) the same way:
// what the desktop program's --role accepts.
func DesktopRoleNames(sep, last string) string { return roleNames(DesktopRoles(), sep, last) }

func roleNames(specs []RoleSpec, sep, last string) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = string(s.Role)
	}
	n := len(names)
	if n < 2 {
		return strings.Join(names, sep)
	}
	return strings.Join(names[:n-1], sep) + last + names[n-1]
}
