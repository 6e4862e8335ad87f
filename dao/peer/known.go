package peer

import (
	"context"
	"sync"
	"time"

	"jiaohao/model"
)

// authFresh is how long a token checked against the database is taken on
// the server's word: a kiosk's burst of requests is one lookup, and a
// revocation made elsewhere (the command line) still works within it.
const authFresh = 2 * time.Second

// knownRefresh is how often the server reads the whole terminal list, so
// that tokens registered elsewhere are known before the database is lost.
// A PC first registered less than this before an outage, and never seen
// since, is refused (401) until the database is back.
const knownRefresh = 10 * time.Second

// known is the server's memory of the terminals by token hash. It lets
// authentication be decided without the database whenever the hash is
// known: during an outage a known PC gets its request through to a 503
// (and reconnects), an unknown token gets 401, neither a 500.
type known struct {
	mu     sync.Mutex
	byHash map[string]knownEntry
	listed bool // the full list was read at least once
}

type knownEntry struct {
	t       model.Terminal
	checked time.Time
}

func (k *known) get(hash string) (knownEntry, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.byHash[hash]
	return e, ok
}

func (k *known) put(t model.Terminal, at time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.byHash == nil {
		k.byHash = map[string]knownEntry{}
	}
	k.byHash[t.TokenHash] = knownEntry{t: t, checked: at}
}

// revoke marks a terminal's token revoked, at once.
func (k *known) revoke(id int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for h, e := range k.byHash {
		if e.t.ID == id {
			e.t.Revoked = true
			k.byHash[h] = e
		}
	}
}

func (k *known) isListed() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.listed
}

// list replaces what is known with the terminal list as read at at.
func (k *known) list(ts []model.Terminal, at time.Time) {
	m := make(map[string]knownEntry, len(ts))
	for _, t := range ts {
		m[t.TokenHash] = knownEntry{t: t, checked: at}
	}
	k.mu.Lock()
	k.byHash, k.listed = m, true
	k.mu.Unlock()
}

// refreshKnown reads the terminal list now and every knownRefresh until
// the server closes.
func (s *Server) refreshKnown() {
	t := time.NewTicker(knownRefresh)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(s.ctx, s.opts.RequestTimeout)
		at := time.Now()
		if ts, err := s.terms.Terminals(ctx); err == nil {
			s.known.list(ts, at)
		}
		cancel()
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// storeDown reports whether the store knows its database is unavailable.
func (s *Server) storeDown() bool {
	d, ok := s.store.(interface{ Down() bool })
	return ok && d.Down()
}

// terminalByHash finds the terminal of a token hash: from memory while the
// answer is fresh or the database is down, else from the database.
func (s *Server) terminalByHash(ctx context.Context, hash string) (model.Terminal, error) {
	e, ok := s.known.get(hash)
	if ok && (time.Since(e.checked) < authFresh || s.storeDown()) {
		return e.t, nil
	}
	if !ok && s.storeDown() && s.known.isListed() {
		return model.Terminal{}, errNoToken
	}
	at := time.Now()
	t, err := s.terms.TerminalByTokenHash(ctx, hash)
	switch c := model.ErrorCode(err); {
	case err == nil:
		s.known.put(t, at)
		return t, nil
	case c == model.ENotFound || c == model.EUnauthorized:
		if ok {
			e.t.Revoked = true
			s.known.put(e.t, at)
		}
		return model.Terminal{}, errNoToken
	case c == model.EUnavailable && ok:
		return e.t, nil
	case c == model.EUnavailable && s.known.isListed():
		return model.Terminal{}, errNoToken
	}
	return model.Terminal{}, err
}
