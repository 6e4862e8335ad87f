package peer

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"jiaohao/model"
)

// Directory says which branch of a database a token or a customer's
// ticket belongs to. Both are unique across the database (random tokens by
// their hash, tickets by their public id), so the lookup needs no branch
// code in the request and a request cannot name another branch at all.
type Directory interface {
	TokenBranch(ctx context.Context, tokenHash string) (int64, error)
	TicketBranch(ctx context.Context, publicID string) (int64, error)
}

// OpenFunc makes the Server of one branch (its store, tokens, report).
type OpenFunc func(ctx context.Context, branch int64) (*Server, error)

// Branches serves many branches of one database from one process and one
// address: each request goes to the Server of the branch its token
// belongs to. Each branch keeps its own Server (one event tail, its own
// snapshots, rate limits and staff sessions), so nothing of one branch is
// reachable through another's: a token asking for another branch's ticket,
// window or events is answered by its own branch, which has no such thing
// (404). Branch Servers open on their first request, so a branch added
// while serving needs no restart.
type Branches struct {
	home   *Server // the branch answering what names no branch (health, bad tokens)
	homeID int64
	dir    Directory
	open   OpenFunc
	log    *slog.Logger
	hq     *headOffice // head office's routes, when ServeHQ added them

	servers sync.Map // branch → *Server, read without a lock by every request
	byToken sync.Map // token hash → branch: a terminal never moves

	mu      sync.Mutex               // guards what follows
	opening map[int64]*openingBranch // branches whose Server is being opened
	ctx     context.Context          // the serving context, once Serve runs
	closed  bool                     // Close ran: a Server opened late is closed at once
}

// openingBranch is one branch's Server being opened; the requests that
// need it meanwhile wait for done, each no longer than its own deadline.
type openingBranch struct {
	done chan struct{}
	s    *Server
	err  error
}

// errBranchDown answers a request whose branch cannot be found or opened
// because the database does not answer: 503, so the PC retries as it does
// for any outage, never 401, which would tell it its token is rejected.
var errBranchDown = model.Errorf(model.EUnavailable, "暂时无法连接本网点的数据，请稍后重试 (the branch cannot be reached now; try again shortly)")

// openTimeout bounds opening a branch's Server: a request for a branch not
// yet open waits no longer on a database that does not answer.
const openTimeout = 5 * time.Second

// NewBranches serves home's branch (homeID) and every other the directory
// knows, opening their Servers with open.
func NewBranches(home *Server, homeID int64, dir Directory, open OpenFunc) *Branches {
	b := &Branches{home: home, homeID: homeID, dir: dir, open: open, log: home.log, opening: map[int64]*openingBranch{}}
	b.servers.Store(homeID, home)
	return b
}

// each calls fn for every branch Server open now.
func (b *Branches) each(fn func(*Server) bool) {
	b.servers.Range(func(_, v any) bool { return fn(v.(*Server)) })
}

// Handler routes each request to its branch's Server, and head office's
// routes (ServeHQ) to head office, whose tokens belong to no branch. The
// body's deadline holds from the start: a staff sign-in's body is read to
// route it.
func (b *Branches) Handler() http.Handler {
	var office http.Handler
	if b.hq != nil {
		office = b.home.logRequests(b.hq.mux)
	}
	return b.home.bodyDeadline(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if office != nil && isHQ(r.URL.Path) {
			office.ServeHTTP(w, r) // head office's tokens, which no branch knows
			return
		}
		s, err := b.route(r)
		if err != nil {
			writeError(w, err)
			return
		}
		s.Handler().ServeHTTP(w, r)
	}))
}

// Serve answers on ln until ctx ends, as Server.Serve does, for every
// branch.
func (b *Branches) Serve(ctx context.Context, ln net.Listener) error {
	b.mu.Lock()
	b.ctx = ctx
	b.each(func(s *Server) bool { s.run(ctx); return true })
	b.mu.Unlock()
	return serveHTTP(ctx, ln, b.Handler(), b.log, b.Close)
}

// Open starts opening the Servers of branches ids now, in the background,
// instead of at each one's first request: a branch's timers (call
// timeouts, idle windows, alerts) and its daily health check then run from
// the start of serving, even before any of its PCs is back after a
// restart. A branch that cannot be opened is logged and opened again at
// its first request.
func (b *Branches) Open(ids ...int64) {
	for _, id := range ids {
		go b.server(context.Background(), id) // openBranch logs a failure
	}
}

// Close closes every branch's Server; it does not close the stores.
func (b *Branches) Close() error {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	if b.hq != nil {
		b.hq.feed.close()
	}
	b.each(func(s *Server) bool { s.Close(); return true })
	return nil
}

// route is the Server of the request's branch: by its bearer token, the
// token a staff sign-in posts, its staff session, or the customer page's
// ticket. Whatever names no known branch goes to home, which answers it
// as any Server does (401 for a bad token, 404 for an unknown ticket);
// a branch that cannot be found or opened for want of the database is
// errBranchDown.
func (b *Branches) route(r *http.Request) (*Server, error) {
	ctx, cancel := context.WithTimeout(r.Context(), b.home.opts.RequestTimeout)
	defer cancel()
	path := r.URL.Path
	if pid, ok := strings.CutPrefix(path, "/t/"); ok {
		pid, _, _ = strings.Cut(pid, "/")
		id, err := b.dir.TicketBranch(ctx, pid)
		if model.IsCode(err, model.ENotFound) {
			return b.home, nil
		}
		if err != nil {
			return nil, b.down("find a ticket's branch", err)
		}
		return b.server(ctx, id)
	}
	tok := bearer(r)
	if tok == "" && r.Method == http.MethodPost && path == "/staff/api/session" {
		tok = signInToken(r)
	}
	if tok != "" && len(tok) <= 200 {
		return b.byHash(ctx, HashToken(tok))
	}
	if c := sessionCookie(r); c != "" {
		found := b.home
		b.each(func(s *Server) bool {
			if _, ok := s.staff.get(c); ok {
				found = s
				return false
			}
			return true
		})
		return found, nil
	}
	return b.home, nil
}

func (b *Branches) byHash(ctx context.Context, hash string) (*Server, error) {
	if id, ok := b.byToken.Load(hash); ok {
		return b.server(ctx, id.(int64))
	}
	id, err := b.dir.TokenBranch(ctx, hash)
	if model.IsCode(err, model.EUnauthorized) {
		return b.home, nil // home says 401, as for a token of no branch
	}
	if err != nil {
		return nil, b.down("find a token's branch", err)
	}
	b.byToken.Store(hash, id)
	return b.server(ctx, id)
}

// down logs why a request's branch could not be reached and answers it
// errBranchDown.
func (b *Branches) down(what string, err error) error {
	b.log.Warn("could not "+what, "err", err)
	return errBranchDown
}

// server is the branch's Server, opened on first use. One open runs per
// branch, bounded by openTimeout, so a branch whose database is slow holds
// only its own requests, each no longer than its deadline.
func (b *Branches) server(ctx context.Context, id int64) (*Server, error) {
	if s, ok := b.servers.Load(id); ok {
		return s.(*Server), nil
	}
	b.mu.Lock()
	if s, ok := b.servers.Load(id); ok {
		b.mu.Unlock()
		return s.(*Server), nil // opened while this request waited
	}
	op := b.opening[id]
	if op == nil {
		op = &openingBranch{done: make(chan struct{})}
		b.opening[id] = op
		go b.openBranch(id, op)
	}
	b.mu.Unlock()
	select {
	case <-op.done:
		if op.err != nil {
			return nil, errBranchDown
		}
		return op.s, nil
	case <-ctx.Done():
		return nil, errBranchDown
	}
}

// openBranch opens one branch's Server and starts it when serving.
func (b *Branches) openBranch(id int64, op *openingBranch) {
	defer close(op.done)
	ctx, cancel := context.WithTimeout(context.Background(), openTimeout)
	s, err := b.open(ctx, id)
	cancel()
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.opening, id)
	if err == nil && b.closed {
		s.Close()
		err = errBranchDown
	}
	if err != nil {
		b.log.Warn("could not open a branch", "branch", id, "err", err)
		op.err = err
		return
	}
	if b.ctx != nil {
		s.run(b.ctx)
	}
	b.servers.Store(id, s)
	op.s = s
}

// signInToken is the token a staff sign-in posts, read from a copy of the
// body so the branch's Server decodes it again.
func signInToken(r *http.Request) string {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err != nil {
		return ""
	}
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	var q signInRequest
	if json.Unmarshal(body, &q) != nil {
		return ""
	}
	return strings.TrimSpace(q.Token)
}
