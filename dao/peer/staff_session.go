package peer

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"net/url"
	"sync"
	"time"

	"jiaohao/model"
)

// The staff page's sessions. A phone's browser cannot hold a bearer token
// safely (any script could read it), so sign-in exchanges the handheld's
// token for a session the server keeps: a random id in an HttpOnly cookie
// the page's script never sees, an expiry, the terminal it was opened
// with (revoking the terminal ends it) and a CSRF token the page sends
// back on every change. Sessions live in the host's memory: a restarted
// host signs the floor staff out, which costs them one sign-in.

const (
	staffCookie      = "jh_staff"
	staffCookieTLS   = "__Host-jh_staff" // the prefix makes the browser insist on Secure, Path=/ and no Domain
	staffCSRFHeader  = "X-CSRF-Token"
	staffSessionTTL  = 12 * time.Hour // a working day; then the staff sign in again
	signInFailLimit  = 5              // bad sign-ins from one address ...
	signInFailWindow = 10 * time.Minute
	maxStaffSessions = 10000 // a bound on memory however many terminals sign in
	// maxSessionsPerTerminal: one handheld's token open in a few browsers
	// (a phone, a tablet, a second tab after a lost cookie); more end the
	// oldest.
	maxSessionsPerTerminal = 8
	maxSignInTrackers      = 10000
)

var (
	errNoSession  = model.Errorf(model.EUnauthorized, "请先登录员工手持终端 (sign in on the staff handheld first)")
	errBadCSRF    = model.Errorf(model.EForbidden, "请求缺少有效的防伪令牌，请刷新页面后重试 (missing or wrong CSRF token; reload the page)")
	errBadOrigin  = model.Errorf(model.EForbidden, "请求来自其他网站，已拒绝 (request from another site refused)")
	errSignInRole = model.Errorf(model.EForbidden, "此令牌不是员工手持终端的令牌 (this token is not a staff handheld's)")
	errLockedOut  = model.Errorf(model.ERateLimited, "登录失败次数过多，请 10 分钟后再试 (too many failed sign-ins; try again in 10 minutes)")
)

// staffSession is one signed-in browser.
type staffSession struct {
	who     principal // the terminal signed in with; a staff account later signs in to the same session
	csrf    string
	expires time.Time
	seq     uint64 // when it opened, among the host's sessions

	mu      sync.Mutex
	ended   bool
	streams map[*context.CancelFunc]struct{} // the page's open event streams
	takes   map[string]*takeMemo             // recent takes by request_id (staff_take_once.go)
}

// follow bounds an event stream by the session: it ends when the session
// expires or is ended; done unregisters it.
func (sess *staffSession) follow(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithDeadline(ctx, sess.expires)
	key := &cancel
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.ended {
		cancel()
		return ctx, cancel
	}
	if sess.streams == nil {
		sess.streams = map[*context.CancelFunc]struct{}{}
	}
	sess.streams[key] = struct{}{}
	return ctx, func() {
		sess.mu.Lock()
		delete(sess.streams, key)
		sess.mu.Unlock()
		cancel()
	}
}

// stop ends the session's streams, and any it would open.
func (sess *staffSession) stop() {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	sess.ended = true
	for cancel := range sess.streams {
		(*cancel)()
	}
}

// staffSessions holds the sessions by the hash of their cookie value (a
// map lookup keyed by the secret itself would leak timing about it), and
// the failed sign-ins per client address, on the host's clock.
type staffSessions struct {
	now   func() time.Time
	mu    sync.Mutex
	byKey map[string]*staffSession
	fails map[string]*signInFails
	seq   uint64 // orders sessions by when they opened
}

func newStaffSessions(now func() time.Time) *staffSessions {
	return &staffSessions{now: now, byKey: map[string]*staffSession{}, fails: map[string]*signInFails{}}
}

func randomString() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// open starts a session for p and returns the cookie value. The session
// of the cookie the browser still sent (replace) ends: signing in again
// is not a second session. A terminal keeps at most
// maxSessionsPerTerminal live sessions, its oldest ending first, so no
// one token's sign-ins push the other handhelds' sessions out.
func (ss *staffSessions) open(p principal, replace string) (string, *staffSession) {
	now := ss.now()
	value := randomString()
	sess := &staffSession{who: p, csrf: randomString(), expires: now.Add(staffSessionTTL)}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if replace != "" && len(replace) <= 100 {
		ss.endLocked(HashToken(replace))
	}
	ss.capTerminalLocked(p.ID, now)
	if len(ss.byKey) >= maxStaffSessions {
		ss.pruneLocked(now)
	}
	ss.seq++
	sess.seq = ss.seq
	ss.byKey[HashToken(value)] = sess
	return value, sess
}

// capTerminalLocked ends terminal id's expired sessions, and its oldest
// live ones until one more fits under maxSessionsPerTerminal.
func (ss *staffSessions) capTerminalLocked(id int64, now time.Time) {
	var mine []string
	for k, sess := range ss.byKey {
		if sess.who.ID != id {
			continue
		}
		if !now.Before(sess.expires) {
			ss.endLocked(k)
			continue
		}
		mine = append(mine, k)
	}
	for len(mine) >= maxSessionsPerTerminal {
		oldest := 0
		for i, k := range mine {
			if ss.byKey[k].seq < ss.byKey[mine[oldest]].seq {
				oldest = i
			}
		}
		ss.endLocked(mine[oldest])
		mine = append(mine[:oldest], mine[oldest+1:]...)
	}
}

// get is the live session of a cookie value.
func (ss *staffSessions) get(value string) (*staffSession, bool) {
	if value == "" || len(value) > 100 {
		return nil, false
	}
	now := ss.now()
	key := HashToken(value)
	ss.mu.Lock()
	defer ss.mu.Unlock()
	sess, ok := ss.byKey[key]
	if ok && !now.Before(sess.expires) {
		ss.endLocked(key)
		return nil, false
	}
	return sess, ok
}

// end signs a cookie value out.
func (ss *staffSessions) end(value string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.endLocked(HashToken(value))
}

func (ss *staffSessions) endLocked(key string) {
	if sess, ok := ss.byKey[key]; ok {
		sess.stop()
		delete(ss.byKey, key)
	}
}

// endTerminal ends every session opened with a terminal's token.
func (ss *staffSessions) endTerminal(id int64) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for k, sess := range ss.byKey {
		if sess.who.ID == id {
			ss.endLocked(k)
		}
	}
}

// pruneLocked drops expired sessions; if the sessions are still at the
// bound, the oldest goes.
func (ss *staffSessions) pruneLocked(now time.Time) {
	var oldestKey string
	var oldest uint64
	for k, sess := range ss.byKey {
		if !now.Before(sess.expires) {
			ss.endLocked(k)
		} else if oldestKey == "" || sess.seq < oldest {
			oldestKey, oldest = k, sess.seq
		}
	}
	if len(ss.byKey) >= maxStaffSessions {
		ss.endLocked(oldestKey)
	}
}

// cookieName is the session cookie's name on this connection: under TLS
// the __Host- prefix, which no plain-HTTP page can set or overwrite.
func cookieName(r *http.Request) string {
	if r.TLS != nil {
		return staffCookieTLS
	}
	return staffCookie
}

// setSessionCookie hands the browser its session: HttpOnly (no script
// reads it), SameSite=Strict (no other site's page or link sends it; the
// staff open the page from a bookmark or by typing the address, which
// Strict allows), Secure whenever the page came over TLS.
func setSessionCookie(w http.ResponseWriter, r *http.Request, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: cookieName(r), Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
}

func sessionCookie(r *http.Request) string {
	c, err := r.Cookie(cookieName(r))
	if err != nil {
		return ""
	}
	return c.Value
}

// sameOrigin refuses a request a browser sent from another site's page:
// the Origin it names (browsers send it on every POST and DELETE) must be
// this host, and Fetch Metadata must not say cross-site. A client that is
// not a browser sends neither and still needs the CSRF token.
func sameOrigin(r *http.Request) error {
	if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
		return errBadOrigin
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host != r.Host {
		return errBadOrigin
	}
	return nil
}

// checkCSRF compares the request's CSRF header with the session's in
// constant time.
func checkCSRF(r *http.Request, sess *staffSession) error {
	got := r.Header.Get(staffCSRFHeader)
	if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(sess.csrf)) != 1 {
		return errBadCSRF
	}
	return nil
}
