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

	servers sync.Map        // branch → *Server, read without a lock by every request
	mu      sync.Mutex      // held to open a branch's Server, and to start them
	ctx     context.Context // the serving context, once Serve runs
	byToken sync.Map        // token hash → branch: a terminal never moves
}

// openTimeout bounds opening a branch's Server: a request for a branch not
// yet open waits no longer on a database that does not answer.
const openTimeout = 5 * time.Second

// NewBranches serves home's branch (homeID) and every other the directory
// knows, opening their Servers with open.
func NewBranches(home *Server, homeID int64, dir Directory, open OpenFunc) *Branches {
	b := &Branches{home: home, homeID: homeID, dir: dir, open: open, log: home.log}
	b.servers.Store(homeID, home)
	return b
}

// each calls fn for every branch Server open now.
func (b *Branches) each(fn func(*Server) bool) {
	b.servers.Range(func(_, v any) bool { return fn(v.(*Server)) })
}

// Handler routes each request to its branch's Server. The body's
// deadline holds from the start: a staff sign-in's body is read to route it.
func (b *Branches) Handler() http.Handler {
	return b.home.bodyDeadline(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.route(r).Handler().ServeHTTP(w, r)
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

// Close closes every branch's Server; it does not close the stores.
func (b *Branches) Close() error {
	b.each(func(s *Server) bool { s.Close(); return true })
	return nil
}

// route is the Server of the request's branch: by its bearer token, the
// token a staff sign-in posts, its staff session, or the customer page's
// ticket. Whatever names no known branch goes to home, which answers it
// as any Server does (401 for a bad token, 404 for an unknown ticket).
func (b *Branches) route(r *http.Request) *Server {
	ctx, cancel := context.WithTimeout(r.Context(), b.home.opts.RequestTimeout)
	defer cancel()
	path := r.URL.Path
	if pid, ok := strings.CutPrefix(path, "/t/"); ok {
		pid, _, _ = strings.Cut(pid, "/")
		if id, err := b.dir.TicketBranch(ctx, pid); err == nil {
			return b.server(ctx, id)
		}
		return b.home
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
		return found
	}
	return b.home
}

func (b *Branches) byHash(ctx context.Context, hash string) *Server {
	if id, ok := b.byToken.Load(hash); ok {
		return b.server(ctx, id.(int64))
	}
	id, err := b.dir.TokenBranch(ctx, hash)
	if err != nil {
		return b.home
	}
	b.byToken.Store(hash, id)
	return b.server(ctx, id)
}

// server is the branch's Server, opened on first use; home while it
// cannot be opened (its own answer then says the database is down, or
// that the token is not its own).
func (b *Branches) server(ctx context.Context, id int64) *Server {
	if s, ok := b.servers.Load(id); ok {
		return s.(*Server)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if s, ok := b.servers.Load(id); ok {
		return s.(*Server) // opened while this request waited
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), openTimeout)
	defer cancel()
	s, err := b.open(ctx, id)
	if err != nil {
		b.log.Warn("could not open a branch", "branch", id, "err", err)
		return b.home
	}
	if b.ctx != nil {
		s.run(b.ctx)
	}
	b.servers.Store(id, s)
	return s
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
