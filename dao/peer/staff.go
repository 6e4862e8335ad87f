package peer

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"jiaohao/model"
)

// The staff handheld (员工手持终端, seed 000): a floor walker's phone or
// tablet opens /staff on the host, signs in with the handheld's token and
// follows the queue live over the same event stream the PCs follow
// (/api/v1/events: snapshot + versions, reload on a gap). It takes numbers
// for customers, looks a number up, and requeues or cancels a passed
// number for a customer who came back (the model's floor actor). Every
// route behind /staff/api needs a session; every change also needs the
// session's CSRF token and a same-origin request.

// staffRoutes are the session's routes: the page's own, and the PCs'
// handlers (snapshot, settings, events) reused as they are.
func (s *Server) staffRoutes() []route {
	return []route{
		{"GET", "/staff/api/me", observers, s.staffMe},
		{"GET", "/staff/api/snapshot", observers, s.snapshot},
		{"GET", "/staff/api/settings", observers, s.settings},
		{"GET", "/staff/api/events", observers, s.events},
		{"GET", "/staff/api/lookup", observers, s.staffLookup},
		{"GET", "/staff/api/tickets/{id}/qr.png", observers, s.staffQR},
		{"GET", "/staff/api/kiosks", observers, s.staffKiosks},
		{"POST", "/staff/api/tickets", takers, s.staffTake},
		{"POST", "/staff/api/tickets/{id}/{action}", model.PermFloor, s.staffAct},
		{"DELETE", "/staff/api/session", observers, s.staffSignOut},
	}
}

// mountStaff adds the staff page and its API to the server's mux.
func (s *Server) mountStaff() {
	s.staff = newStaffSessions(s.opts.StaffClock)
	s.mux.Handle("GET /staff", s.bounded(http.HandlerFunc(s.staffPage)))
	s.mux.Handle("GET /staff/login", s.bounded(http.HandlerFunc(s.staffLoginPage)))
	s.mux.Handle("POST /staff/api/session", s.bounded(http.HandlerFunc(s.staffSignIn)))
	for _, rt := range s.staffRoutes() {
		s.mux.Handle(rt.method+" "+rt.pattern, s.staffAPI(rt))
	}
}

// session is the request's live session: its cookie names one that has
// not expired, opened with a terminal that is still allowed in. A revoked
// terminal's sessions end here at its next request.
func (s *Server) session(r *http.Request) (*staffSession, error) {
	value := sessionCookie(r)
	sess, ok := s.staff.get(value)
	if !ok {
		return nil, errNoSession
	}
	t, err := s.terminalByHash(r.Context(), sess.who.TokenHash)
	if model.IsCode(err, model.EUnauthorized) || (err == nil && (t.Revoked || t.ID != sess.who.ID)) {
		s.staff.endTerminal(sess.who.ID)
		return nil, errNoSession
	}
	if err != nil {
		return nil, err
	}
	return sess, nil
}

// staffAPI checks the session, the role's permission and, for a change,
// the origin and the CSRF token, then runs the handler as the terminal.
func (s *Server) staffAPI(rt route) http.Handler {
	h := http.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sess, err := s.session(r)
		if err != nil {
			writeError(w, err)
			return
		}
		if r.Method != http.MethodGet {
			if err := sameOrigin(r); err != nil {
				writeError(w, err)
				return
			}
			if err := checkCSRF(r, sess); err != nil {
				writeError(w, err)
				return
			}
		}
		if !sess.who.may(rt.need) {
			writeError(w, errForbidden)
			return
		}
		ctx := model.WithActor(r.Context(), actorName(sess.who))
		ctx = context.WithValue(ctx, sessionKey{}, sess)
		if rt.pattern == "/staff/api/events" {
			var done func()
			ctx, done = sess.follow(ctx) // signing out or expiry ends the stream too
			defer done()
		}
		if err := rt.fn(w, r.WithContext(ctx), sess.who); err != nil {
			writeError(w, err)
		}
	}))
	if rt.pattern == "/staff/api/events" {
		return h // the stream lives as long as the page
	}
	return s.bounded(h)
}

type sessionKey struct{}

// signInRequest is the sign-in form. A staff account (a later issue) adds
// its own fields here and signs in to the same kind of session.
type signInRequest struct {
	Token string `json:"token"`
}

func (q signInRequest) validate() error {
	if t := strings.TrimSpace(q.Token); t == "" || len(t) > 200 {
		return invalid("请输入手持终端的令牌 (enter the handheld's token)")
	}
	return nil
}

// staffSignIn is POST /staff/api/session: a handheld's token for a
// session. Only a role whose page this is may sign in. A right token
// always signs in: a lockout is kept per client address (an IPv6 /64),
// and one phone's typos behind the branch's shared NAT address must not
// lock every handheld out. Past five bad tries from one address in ten
// minutes its further bad tries are refused with 429 instead of 401. A
// browser signing in again ends the session it had.
func (s *Server) staffSignIn(w http.ResponseWriter, r *http.Request) {
	addr := remoteHost(r)
	fail := func(err error) {
		if model.IsCode(err, model.EUnauthorized) || model.IsCode(err, model.EForbidden) || model.IsCode(err, model.EInvalidInput) {
			if s.staff.failed(addr) {
				w.Header().Set("Retry-After", strconv.Itoa(int(signInFailWindow.Seconds())))
				err = errLockedOut
			}
		}
		writeError(w, err)
	}
	if err := sameOrigin(r); err != nil {
		writeError(w, err)
		return
	}
	q, err := decode[signInRequest](r, false)
	if err != nil {
		fail(err)
		return
	}
	p, err := s.staffCredential(r, q)
	if err != nil {
		fail(err)
		return
	}
	value, sess := s.staff.open(p, sessionCookie(r))
	setSessionCookie(w, r, value, int(staffSessionTTL.Seconds()))
	writeJSON(w, http.StatusOK, meBody(sess))
}

// staffCredential is the one place a sign-in's credential becomes who is
// signed in: a handheld's token today, checked as every PC's is; a staff
// account's name and password (a later issue) resolve here too, and the
// rest of the session does not change.
func (s *Server) staffCredential(r *http.Request, q signInRequest) (principal, error) {
	r.Header.Set("Authorization", "Bearer "+strings.TrimSpace(q.Token))
	p, err := s.authenticate(r)
	if err != nil {
		return principal{}, err
	}
	if spec, _ := p.Role.Spec(); spec.Page != "/staff" {
		return principal{}, errSignInRole
	}
	return p, nil
}

// staffSignOut is DELETE /staff/api/session.
func (s *Server) staffSignOut(w http.ResponseWriter, r *http.Request, _ principal) error {
	s.staff.end(sessionCookie(r))
	setSessionCookie(w, r, "", -1)
	writeJSON(w, http.StatusOK, map[string]bool{"signed_out": true})
	return nil
}

// meBody is what the page knows of its session: who it is and the CSRF
// token its changes carry.
func meBody(sess *staffSession) map[string]any {
	return map[string]any{"name": sess.who.Name, "role": sess.who.Role, "csrf": sess.csrf, "expires": sess.expires}
}

func (s *Server) staffMe(w http.ResponseWriter, r *http.Request, _ principal) error {
	sess, _ := r.Context().Value(sessionKey{}).(*staffSession)
	writeJSON(w, http.StatusOK, meBody(sess))
	return nil
}
