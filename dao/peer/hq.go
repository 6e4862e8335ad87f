package peer

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strings"
	"sync"
	"time"

	"jiaohao/model"
)

// HQOptions is what head office's routes need of a process serving every
// branch: head office's tokens, which belong to no branch, and the list of
// branches.
type HQOptions struct {
	// Terminals are head office's (sqlstore's HeadOffice): the hq role's
	// tokens, which no branch's authentication takes for its own.
	Terminals model.Terminals
	// Branches lists every branch of the database; a branch added while
	// serving is found at the next refresh.
	Branches func(ctx context.Context) ([]model.BranchInfo, error)
	// Debounce is the least time between two recomputations of one
	// branch's line, however busy the branch (default 500 ms).
	Debounce time.Duration
	// Report renders the report over a set of branches (nil codes: every
	// branch) and business days for head office; nil answers
	// "unavailable".
	Report HQReportFunc
	// Refresh is how often every line is worked out again without an event
	// and the branches are listed again (default 15 s): the longest wait
	// of an idle hall still grows, and a new branch appears.
	Refresh time.Duration
}

func (o HQOptions) withDefaults() HQOptions {
	if o.Debounce <= 0 {
		o.Debounce = 500 * time.Millisecond
	}
	if o.Refresh <= 0 {
		o.Refresh = 15 * time.Second
	}
	return o
}

// hqPrefix is where head office's routes live. A branch's Server has none
// of them, so without ServeHQ they answer 404 like any unknown path.
const hqPrefix = "/api/v1/hq/"

// headOffice serves head office's routes for a Branches: its own
// authentication (head office's tokens only) and the one overview feed
// all of head office's PCs share.
type headOffice struct {
	b    *Branches
	opts HQOptions
	feed *hqFeed
	mux  *http.ServeMux

	seenMu sync.Mutex
	seen   map[int64]time.Time // when each head-office PC was last noted
}

// ServeHQ adds head office's routes to b: GET /api/v1/hq/overview (every
// branch's line and the totals), GET /api/v1/hq/live (the same, live,
// over a WebSocket) and GET /api/v1/hq/reports (the report over a set of
// branches). Call it before serving.
func (b *Branches) ServeHQ(o HQOptions) {
	h := &headOffice{b: b, opts: o.withDefaults(), mux: http.NewServeMux(), seen: map[int64]time.Time{}}
	h.feed = newHQFeed(b, h.opts)
	h.mux.Handle("GET /api/v1/hq/overview", b.home.bounded(h.api(h.overview)))
	h.mux.Handle("GET /api/v1/hq/live", h.api(h.live))
	h.mux.Handle("GET /api/v1/hq/reports", h.api(h.report))
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, model.Errorf(model.ENotFound, "没有这个地址 (no such path)"))
	})
	b.hq = h
}

// HQOverview is the answer of GET /api/v1/hq/overview: every branch's
// line, trouble first (model.SortOverview), and their totals.
type HQOverview struct {
	Branches []model.BranchOverview `json:"branches"`
	Total    model.BranchOverview   `json:"total"`
}

func hqOverview(lines []model.BranchOverview) HQOverview {
	if lines == nil {
		lines = []model.BranchOverview{}
	}
	model.SortOverview(lines)
	return HQOverview{Branches: lines, Total: model.OverviewTotal(lines)}
}

// errNotHeadOffice refuses a branch's token on head office's routes: a
// branch's manager sees only their own branch.
var errNotHeadOffice = model.Errorf(model.EForbidden, "只有总部终端可以查看各网点总览 (only head office's PCs see every branch)")

// api authenticates a head-office token and runs fn. A branch's token is
// refused (403) and anything else is no token (401), revoked ones too.
func (h *headOffice) api(fn func(w http.ResponseWriter, r *http.Request, p principal) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := h.authenticate(r)
		if err != nil {
			writeError(w, err)
			return
		}
		if err := fn(w, r, p); err != nil {
			writeError(w, err)
		}
	})
}

func (h *headOffice) authenticate(r *http.Request) (principal, error) {
	tok := bearer(r)
	if tok == "" || len(tok) > 200 {
		return principal{}, errNoToken
	}
	hash := HashToken(tok)
	ctx, cancel := context.WithTimeout(r.Context(), h.b.home.opts.RequestTimeout)
	defer cancel()
	t, err := h.opts.Terminals.TerminalByTokenHash(ctx, hash)
	if model.IsCode(err, model.EUnauthorized) || model.IsCode(err, model.ENotFound) {
		if _, err := h.b.dir.TokenBranch(ctx, hash); err == nil {
			return principal{}, errNotHeadOffice
		}
		return principal{}, errNoToken
	}
	if err != nil {
		return principal{}, h.b.down("find a head-office token", err)
	}
	if subtle.ConstantTimeCompare([]byte(hash), []byte(t.TokenHash)) != 1 || t.Revoked || !t.Role.May(model.PermOverview) {
		return principal{}, errNoToken
	}
	h.touch(t.ID)
	return principal{t}, nil
}

// touch writes a head-office PC's last-seen time at most once a minute,
// off the request.
func (h *headOffice) touch(id int64) {
	now := time.Now()
	h.seenMu.Lock()
	last, ok := h.seen[id]
	if ok && now.Sub(last) < time.Minute {
		h.seenMu.Unlock()
		return
	}
	h.seen[id] = now
	h.seenMu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), h.b.home.opts.RequestTimeout)
		defer cancel()
		if err := h.opts.Terminals.TouchTerminal(ctx, id); err != nil {
			h.b.log.Warn("could not record terminal last seen", "terminal", id, "err", model.ErrorCode(err))
		}
	}()
}

// overview answers every branch's line now: the feed's, fresh, when it
// runs, else read from each branch.
func (h *headOffice) overview(w http.ResponseWriter, r *http.Request, _ principal) error {
	lines, err := h.feed.now(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, hqOverview(lines))
	return nil
}

// isHQ reports whether a request is for head office's routes.
func isHQ(path string) bool { return strings.HasPrefix(path, hqPrefix) }
