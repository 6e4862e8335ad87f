package peer

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"
	"time"

	"jiaohao/model"
)

const tokenPrefix = "jh_"

// NewToken makes a fresh bearer token (256 random bits) and the hash to
// store. The token itself is shown once and never stored.
func NewToken() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	token = tokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token), nil
}

// HashToken is the stored form of a token: hex SHA-256. Tokens are random
// and long, so a plain hash is enough; a slow hash would only slow every
// request.
func HashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// principal is the authenticated terminal behind a request.
type principal struct {
	model.Terminal
}

// may reports whether the principal's role has perm in the role table.
func (p principal) may(perm model.Permission) bool { return p.Role.May(perm) }

var (
	errNoToken   = model.Errorf(model.EUnauthorized, "需要有效的终端令牌 (a valid terminal token is required)")
	errForbidden = model.Errorf(model.EForbidden, "此终端无权执行该操作 (this terminal may not do that)")
)

// bearer extracts the token from the Authorization header.
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
		return ""
	}
	return strings.TrimSpace(h[7:])
}

// authenticate finds the terminal holding the request's token. The lookup
// is by hash and the hashes are compared in constant time, so response time
// says nothing about how close a guess was.
func (s *Server) authenticate(r *http.Request) (principal, error) {
	tok := bearer(r)
	if tok == "" || len(tok) > 200 {
		return principal{}, errNoToken
	}
	hash := HashToken(tok)
	t, err := s.terminalByHash(r.Context(), hash)
	if err != nil {
		return principal{}, err
	}
	if subtle.ConstantTimeCompare([]byte(hash), []byte(t.TokenHash)) != 1 || t.Revoked || !t.Role.Valid() {
		return principal{}, errNoToken
	}
	s.touch(t.ID)
	return principal{t}, nil
}

// touch notes that a terminal was seen, at most once a minute each. The
// write happens later, from flushSeen, so a request never waits for it and
// a thousand screens connecting at once do not take a thousand of the
// pool's connections for it.
func (s *Server) touch(id int64) {
	now := time.Now()
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	if last, ok := s.seen[id]; ok && now.Sub(last) < time.Minute {
		return
	}
	s.seen[id] = now
	s.unsaved[id] = true
}

// seenFlush is how often the terminals' last-seen times are written.
const seenFlush = 2 * time.Second

// flushSeen writes the noted last-seen times one at a time, on one
// connection, until the server closes. While the database is down they
// wait; the outage is logged once by the store.
func (s *Server) flushSeen() {
	t := time.NewTicker(seenFlush)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		if s.storeDown() {
			continue
		}
		s.seenMu.Lock()
		ids := s.unsaved
		s.unsaved = map[int64]bool{}
		s.seenMu.Unlock()
		for id := range ids {
			ctx, cancel := context.WithTimeout(s.ctx, s.opts.RequestTimeout)
			err := s.terms.TouchTerminal(ctx, id)
			cancel()
			if err != nil {
				s.log.Warn("could not record terminal last seen", "terminal", id, "err", model.ErrorCode(err))
			}
		}
	}
}

// limiter is a token bucket per terminal: burst of perMinute, refilled
// evenly over a minute.
type limiter struct {
	perMinute int
	mu        sync.Mutex
	buckets   map[int64]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(perMinute int) *limiter {
	return &limiter{perMinute: perMinute, buckets: map[int64]*bucket{}}
}

// allow takes one token from the terminal's bucket if it has one.
func (l *limiter) allow(id int64, now time.Time) bool {
	if l.perMinute <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[id]
	if !ok {
		b = &bucket{tokens: float64(l.perMinute), at: now}
		l.buckets[id] = b
	}
	b.tokens += now.Sub(b.at).Minutes() * float64(l.perMinute)
	if max := float64(l.perMinute); b.tokens > max {
		b.tokens = max
	}
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
