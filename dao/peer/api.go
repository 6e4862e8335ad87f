package peer

import (
	"context"
	"net/http"
	"time"

	"jiaohao/model"
)

// apiFunc handles one authenticated route; it writes its own success
// response and returns errors for the wrapper to answer.
type apiFunc func(w http.ResponseWriter, r *http.Request, p principal) error

// route is one entry of the contract: the permission of the role table
// it needs, and the handler.
type route struct {
	method, pattern string
	need            model.Permission
	fn              apiFunc
}

// Who may call a route, by the permission it needs.
const (
	observers = model.PermObserve
	takers    = model.PermTake
	actors    = model.PermAct
	managers  = model.PermManage
)

// routes is the /api/v1 surface behind a token (health is open). Callers
// are further limited to their own window inside the handlers.
func (s *Server) routes() []route {
	return append([]route{
		{"POST", "/api/v1/tickets", takers, s.take},
		{"GET", "/api/v1/tickets/{id}", observers, s.getTicket},
		{"GET", "/api/v1/tickets/{id}/position", observers, s.position},
		{"GET", "/api/v1/positions/next", observers, s.nextPositions},
		{"POST", "/api/v1/tickets/{id}/{action}", actors, s.act},
		{"GET", "/api/v1/public/{pid}", observers, s.byPublicID},
		{"POST", "/api/v1/windows/{n}/call", actors, s.call},
		{"PUT", "/api/v1/windows/{n}/status", actors, s.windowStatus},
		{"PUT", "/api/v1/windows/{n}/services", actors, s.windowServices}, // a caller: its own window, allowed services
		{"PUT", "/api/v1/windows/{n}", managers, s.saveWindow},
		{"GET", "/api/v1/windows", observers, s.windows},
		{"GET", "/api/v1/services", observers, s.services},
		{"PUT", "/api/v1/services/{code}", managers, s.saveService},
		{"GET", "/api/v1/areas", observers, s.areas},
		{"POST", "/api/v1/areas", managers, s.saveArea},
		{"PUT", "/api/v1/areas/{id}", managers, s.saveArea},
		{"DELETE", "/api/v1/areas/{id}", managers, s.deleteArea},
		{"GET", "/api/v1/settings", observers, s.settings},
		{"PUT", "/api/v1/settings/{key}", managers, s.setSetting},
		{"PUT", "/api/v1/branch", managers, s.setBranch},
		{"GET", "/api/v1/logo", observers, s.getLogo},
		{"PUT", "/api/v1/logo", managers, s.setLogo},
		{"GET", "/api/v1/snapshot", observers, s.snapshot},
		{"GET", "/api/v1/events", observers, s.events},
		{"GET", "/api/v1/eventlog", observers, s.eventLog},
		{"POST", "/api/v1/sweep", actors, s.sweepNow},
		{"POST", "/api/v1/devices", observers, s.reportDevice},
		{"GET", "/api/v1/time", observers, s.now},
		{"GET", "/api/v1/whoami", observers, s.whoami},
		{"GET", "/api/v1/terminals", managers, s.terminals},
		{"POST", "/api/v1/terminals", managers, s.addTerminal},
		{"DELETE", "/api/v1/terminals/{id}", managers, s.revokeTerminal},
		{"GET", "/api/v1/reports", managers, s.report},
		{"POST", "/api/v1/alerts/{id}/ack", managers, s.ackAlert},
		{"GET", "/api/v1/healthcheck", managers, s.lastHealth},
		{"POST", "/api/v1/healthcheck", managers, s.runHealth},
		{"GET", "/api/v1/prints", model.PermPrint, s.pendingPrints},          // a kiosk's own only
		{"POST", "/api/v1/prints/{id}/claim", model.PermPrint, s.claimPrint}, // a kiosk's own only
	}, append(append(s.clerkRoutes(), s.registerRoutes()...), s.ratingRoutes()...)...)
}

// selfBounded are the routes with their own bound: the event stream lives
// as long as its subscriber, a report and a health check have
// ReportTimeout, and so has an import of customers.
var selfBounded = map[string]bool{"/api/v1/events": true, "/api/v1/reports": true, "/api/v1/healthcheck": true, "/api/v1/customers/import": true}

// errPageRoleAPI refuses a role that runs as the host's web page (the
// handheld) on the PCs' API: its token only signs in to its page, whose
// session carries CSRF protection and ends with the terminal, so a token
// read off a phone or sniffed on the Wi-Fi is not a bearer credential for
// taking numbers, reading the event log or raising device alerts.
var errPageRoleAPI = model.Errorf(model.EForbidden, "此令牌只能登录员工手持终端页面 /staff，不能用于窗口电脑的接口 (this token only signs in to the staff page, not the PCs' API)")

// api authenticates, checks the role, names the actor for the event log
// and runs the handler, within the request deadline.
func (s *Server) api(rt route) http.Handler {
	h := http.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.authenticate(r)
		if err != nil {
			writeError(w, err)
			return
		}
		if spec, _ := p.Role.Spec(); !spec.Desktop() {
			writeError(w, errPageRoleAPI)
			return
		}
		if !p.may(rt.need) {
			writeError(w, errForbidden)
			return
		}
		ctx := model.WithActor(r.Context(), actorName(p))
		if err := rt.fn(w, r.WithContext(ctx), p); err != nil {
			writeError(w, err)
		}
	}))
	if selfBounded[rt.pattern] {
		return h
	}
	return s.bounded(h)
}

func actorName(p principal) string { return p.ActorName() }

// actingWindow is the window a request acts for: a role that manages acts
// for the window it names, or for any window with 0; any other (a caller)
// always acts for its own window and may not name another.
func actingWindow(p principal, requested int) (int, error) {
	if p.may(model.PermManage) {
		return requested, nil
	}
	if requested != 0 && requested != p.Window {
		return 0, errForbidden
	}
	if p.Window <= 0 {
		return 0, errForbidden
	}
	return p.Window, nil
}

// ticketOut adds where a waiting ticket stands.
func (s *Server) ticketOut(ctx context.Context, t model.Ticket) Ticket {
	out := Ticket{Ticket: t}
	if t.Status != model.Waiting {
		return out
	}
	pos, err := s.store.Position(ctx, t.ID)
	if err != nil {
		s.log.Warn("position failed", "ticket", t.ID, "code", model.ErrorCode(err))
		return out
	}
	out.Ahead, out.ETASeconds, out.NoWindow = pos.Ahead, pos.ETASeconds, pos.NoWindow
	return out
}

func (s *Server) answerTicket(w http.ResponseWriter, r *http.Request, status int, t model.Ticket, err error) error {
	if err != nil {
		return err
	}
	writeJSON(w, status, s.ticketOut(r.Context(), t))
	return nil
}

func (s *Server) take(w http.ResponseWriter, r *http.Request, p principal) error {
	q, err := decode[takeRequest](r, false)
	if err != nil {
		return err
	}
	if !s.takes.allow(p.ID, time.Now()) {
		return model.Errorf(model.ERateLimited, "取号过于频繁，请稍后再试 (too many numbers taken; try again shortly)")
	}
	// The source comes from the token's role: a caller's number is a
	// window's (窗口代取) whatever the body says.
	t, err := s.store.TakeTicket(r.Context(), q.Service, q.Priority, p.Role.TicketSource())
	return s.answerTaken(w, r, t, err)
}

// takenPositions is a store that remembers where its last takes stood.
type takenPositions interface {
	TakenPosition(id int64) (model.Position, bool)
}

// answerTaken answers a take with the ticket and where it stood when
// taken, the take's own estimate, so a busy hall's kiosks do not each
// walk the queue again for the answer; a store that does not remember
// it is asked as for any ticket.
func (s *Server) answerTaken(w http.ResponseWriter, r *http.Request, t model.Ticket, err error) error {
	if err != nil {
		return err
	}
	tp, ok := s.store.(takenPositions)
	if !ok {
		return s.answerTicket(w, r, http.StatusCreated, t, nil)
	}
	pos, found := tp.TakenPosition(t.ID)
	if !found {
		return s.answerTicket(w, r, http.StatusCreated, t, nil)
	}
	out := Ticket{Ticket: t, Ahead: pos.Ahead, ETASeconds: pos.ETASeconds, NoWindow: pos.NoWindow}
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (s *Server) getTicket(w http.ResponseWriter, r *http.Request, _ principal) error {
	id, err := parseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	t, err := s.store.Ticket(r.Context(), id)
	return s.answerTicket(w, r, http.StatusOK, t, err)
}

func (s *Server) position(w http.ResponseWriter, r *http.Request, _ principal) error {
	id, err := parseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	pos, err := s.store.Position(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, pos)
	return nil
}

func (s *Server) byPublicID(w http.ResponseWriter, r *http.Request, _ principal) error {
	pid := r.PathValue("pid")
	if !validPublicID(pid) {
		return model.Errorf(model.ENotFound, "没有这个号码 (no such ticket)")
	}
	t, err := s.store.TicketByPublicID(r.Context(), pid)
	return s.answerTicket(w, r, http.StatusOK, t, err)
}

// ticketActions are the POST /tickets/{id}/{action} verbs besides transfer.
var ticketActions = map[string]func(model.Store, context.Context, int64, int) (model.Ticket, error){
	"recall":    model.Store.Recall,
	"pass":      model.Store.Pass,
	"undo-pass": model.Store.UndoPass,
	"requeue":   model.Store.Requeue,
	"serve":     model.Store.StartServing,
	"finish":    model.Store.Finish,
	"cancel":    model.Store.Cancel,
}

func (s *Server) act(w http.ResponseWriter, r *http.Request, p principal) error {
	action := r.PathValue("action")
	do, ok := ticketActions[action]
	if !ok && action != "transfer" {
		return model.Errorf(model.ENotFound, "没有这个操作 (no such action)")
	}
	id, err := parseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	if action == "transfer" {
		q, err := decode[transferRequest](r, false)
		if err != nil {
			return err
		}
		win, err := actingWindow(p, q.FromWindow)
		if err != nil {
			return err
		}
		t, err := s.store.Transfer(r.Context(), id, win, model.TransferTarget{Window: q.Window, Service: q.Service})
		return s.answerTicket(w, r, http.StatusOK, t, err)
	}
	q, err := decode[actionRequest](r, true)
	if err != nil {
		return err
	}
	win, err := actingWindow(p, q.Window)
	if err != nil {
		return err
	}
	t, err := do(s.store, r.Context(), id, win)
	return s.answerTicket(w, r, http.StatusOK, t, err)
}

// pathWindow reads {n} and checks the caller may act for it.
func pathWindow(r *http.Request, p principal) (int, error) {
	n, err := parseWindowPath(r.PathValue("n"))
	if err != nil {
		return 0, err
	}
	if _, err := actingWindow(p, n); err != nil {
		return 0, err
	}
	return n, nil
}

func (s *Server) call(w http.ResponseWriter, r *http.Request, p principal) error {
	n, err := pathWindow(r, p)
	if err != nil {
		return err
	}
	q, err := decode[callRequest](r, true)
	if err != nil {
		return err
	}
	t, err := s.store.CallNext(r.Context(), n, q.Service)
	return s.answerTicket(w, r, http.StatusOK, t, err)
}
