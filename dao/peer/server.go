package peer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"jiaohao/model"
)

// Options tune a Server; the zero value is ready for use.
type Options struct {
	// TakePerMinute limits how many numbers one token may take per minute
	// (burst of the same size), and as many customer identifications. 0
	// means the default of 30; negative means no limit.
	TakePerMinute int
	// SweepEvery runs the store's timers (call timeout, recall pool, idle
	// windows) at this interval while Serve runs; 0 leaves sweeping to
	// someone else.
	SweepEvery time.Duration
	// PingEvery keeps idle WebSocket connections alive; default 20 s.
	PingEvery time.Duration
	// MaxBackfill is how many missed events a reconnecting subscriber is
	// sent from the log before it is told to resync instead; default 10000.
	MaxBackfill int
	// SubscriberBuffer is how many events may wait for one slow subscriber
	// before it is dropped; default 256.
	SubscriberBuffer int
	// LivePerTicket and LivePerAddress cap the customer pages open live on
	// one ticket and from one client address (defaults 4 and 64); past a
	// cap a page polls every LivePollEvery (default 30 s) instead.
	LivePerTicket  int
	LivePerAddress int
	LivePollEvery  time.Duration
	// Report renders the daily report for a manager PC; nil answers
	// "unavailable".
	Report ReportFunc
	// Health is the host's daily health check for a manager PC; nil
	// answers "unavailable".
	Health model.HealthDesk
	// Logger receives one line per request, with no token, query string or
	// customer id in it. Default: discard.
	Logger *slog.Logger
	// RequestTimeout bounds every request but the event stream and reports,
	// the database transaction included: a frozen database rolls back
	// instead of committing after the PC gave up. Default 5 s, below the
	// client's 10 s.
	RequestTimeout time.Duration
	// BodyTimeout bounds reading a request's body, as ReadHeaderTimeout
	// bounds its headers: a client that trickles a body is cut off.
	// WebSocket streams are not affected. Default 10 s.
	BodyTimeout time.Duration
	// StaffClock is the host's clock for the staff page's sessions and
	// sign-in lockouts (this process's, never a terminal's). Default
	// time.Now; a test moves it instead of sleeping.
	StaffClock func() time.Time
}

func (o Options) withDefaults() Options {
	if o.TakePerMinute == 0 {
		o.TakePerMinute = 30
	}
	if o.StaffClock == nil {
		o.StaffClock = time.Now
	}
	if o.PingEvery <= 0 {
		o.PingEvery = 20 * time.Second
	}
	if o.MaxBackfill <= 0 {
		o.MaxBackfill = 10000
	}
	if o.SubscriberBuffer <= 0 {
		o.SubscriberBuffer = 256
	}
	if o.LivePerTicket <= 0 {
		o.LivePerTicket = 4
	}
	if o.LivePerAddress <= 0 {
		o.LivePerAddress = 64
	}
	if o.LivePollEvery <= 0 {
		o.LivePollEvery = 30 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = 5 * time.Second
	}
	if o.BodyTimeout <= 0 {
		o.BodyTimeout = 10 * time.Second
	}
	return o
}

// Server serves one branch's Store to the other PCs. It is safe for
// concurrent use; one Server keeps one Watch on the store however many
// subscribers it has.
type Server struct {
	store model.Store
	terms model.Terminals
	opts  Options
	log   *slog.Logger
	takes *limiter
	// idents limits customer identifications per token like takes
	// (register.go).
	idents *limiter
	hub    *hub
	live   *livePages
	mux    *http.ServeMux

	snaps *snapshots

	seenMu  sync.Mutex
	seen    map[int64]time.Time // when each terminal was last noted
	unsaved map[int64]bool      // noted, not yet written

	streamsMu sync.Mutex
	streams   map[int64]map[*context.CancelCauseFunc]bool // live event streams by terminal

	known known // terminals by token hash, for authentication during outages

	staff *staffSessions // the staff page's signed-in browsers

	ctx    context.Context // ends when the server closes
	cancel context.CancelFunc
}

// NewServer wraps a store; terms holds the tokens allowed in. It starts
// tailing the store's events at once; Close (or the end of Serve) stops it.
func NewServer(store model.Store, terms model.Terminals, opts Options) *Server {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		store: store, terms: terms, opts: opts, log: opts.Logger,
		takes: newLimiter(opts.TakePerMinute), idents: newLimiter(opts.TakePerMinute),
		seen: map[int64]time.Time{}, unsaved: map[int64]bool{}, streams: map[int64]map[*context.CancelCauseFunc]bool{},
		ctx: ctx, cancel: cancel,
	}
	s.hub = newHub(ctx, store, opts.SubscriberBuffer, opts.Logger)
	s.hub.start() // the one event tail, ready before the first subscriber
	go s.refreshKnown()
	go s.flushSeen()
	s.live = newLivePages(s)
	s.snaps = newSnapshots(ctx, opts.RequestTimeout, store.Snapshot)
	s.mux = http.NewServeMux()
	for _, rt := range s.routes() {
		s.mux.Handle(rt.method+" "+rt.pattern, s.api(rt))
	}
	s.mux.Handle("GET /api/v1/health", s.bounded(http.HandlerFunc(s.health)))
	s.mux.Handle("GET /t/{pid}", s.bounded(http.HandlerFunc(s.customerPage)))
	s.mux.HandleFunc("GET /t/{pid}/live", s.customerLive)
	s.mux.Handle("GET /t/{pid}/view", s.bounded(http.HandlerFunc(s.customerViewJSON)))
	s.mux.Handle("POST /t/{pid}/rating", s.bounded(http.HandlerFunc(s.pageRating)))
	s.mountStaff()
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, model.Errorf(model.ENotFound, "没有这个地址 (no such path)"))
	})
	return s
}

// Handler is the whole HTTP surface, for embedding in another server or a
// test.
func (s *Server) Handler() http.Handler { return s.logRequests(s.bodyDeadline(s.mux)) }

// Close ends every subscription and the store watch; it does not close the
// store.
func (s *Server) Close() error {
	s.cancel()
	return nil
}

// Serve answers on ln until ctx ends, then shuts down gracefully: new
// connections are refused, running requests get a few seconds to finish,
// WebSocket subscribers are closed. Wrap ln with tls.NewListener for TLS.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.run(ctx)
	return serveHTTP(ctx, ln, s.Handler(), s.log, s.Close)
}

// run starts what a serving Server keeps doing: the event tail and, when
// asked for, the timers.
func (s *Server) run(ctx context.Context) {
	s.hub.start()
	if s.opts.SweepEvery > 0 {
		go s.sweep(ctx)
	}
}

// serveHTTP answers h on ln until ctx ends, then shuts down as Serve says;
// stop ends the WebSocket handlers first.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, log *slog.Logger, stop func() error) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		stop()
		return fmt.Errorf("peer server: %w", err)
	case <-ctx.Done():
	}
	stop() // ends WebSocket handlers, which Shutdown does not wait for
	// Running requests end by their own deadline; the grace leaves the
	// process time to close its store within 5 s of the signal.
	shut, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		// A client still sending after the grace is cut off: the stop was
		// asked for, and it must not wait on a stuck connection.
		log.Warn("requests still open at shutdown were cut off")
		srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("peer server: %w", err)
	}
	return nil
}

// sweep runs the store's timers; the SQL is idempotent, so other PCs may
// sweep too.
func (s *Server) sweep(ctx context.Context) {
	t := time.NewTicker(s.opts.SweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.ctx.Done():
			return
		case <-t.C:
			sctx, cancel := context.WithTimeout(ctx, s.opts.RequestTimeout)
			if _, err := s.store.Sweep(sctx); err != nil && ctx.Err() == nil && !s.storeDown() {
				s.log.Warn("sweep failed", "code", model.ErrorCode(err))
			}
			cancel()
		}
	}
}

// health is ok only when the database takes a write right now (a full
// disk or a read-only file is down, not ok); the store's probe writes at
// most once a second however often health is asked.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	v, err := s.version(r.Context())
	if err != nil {
		if !model.IsCode(err, model.EUnavailable) {
			err = model.Errorf(model.EUnavailable, "数据库不可用 (database unavailable)")
		}
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "db": s.store.Engine(), "version": v})
}

// version is the newest committed event version, from the store's write
// probe where it has one.
func (s *Server) version(ctx context.Context) (int64, error) {
	if p, ok := s.store.(interface {
		Probe(context.Context) (int64, error)
	}); ok {
		return p.Probe(ctx)
	}
	snap, err := s.store.Snapshot(ctx)
	if err != nil {
		return 0, err
	}
	return snap.Version, nil
}

// statusWriter remembers the status for the request log; Unwrap lets the
// WebSocket upgrade reach the connection underneath.
type statusWriter struct {
	http.ResponseWriter
	status int
	code   string // the error code answered, if any
}

func (w *statusWriter) setCode(code string) { w.code = code }

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequests logs one line per request. It logs the route pattern, not the
// path, so customer ids and query strings never reach the log; it recovers
// a panicking handler into a plain 500.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("handler panic", "route", r.Pattern, "panic", fmt.Sprint(v))
				if sw.status == 0 {
					writeError(sw, errors.New("panic"))
				}
			}
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			attrs := []any{"method", r.Method, "route", r.Pattern, "status", status,
				"ms", time.Since(start).Milliseconds(), "remote", remoteHost(r)}
			if sw.code != "" {
				attrs = append(attrs, "code", sw.code)
			}
			s.log.Info("request", attrs...)
		}()
		next.ServeHTTP(sw, r)
	})
}

func remoteHost(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return ""
	}
	return h
}

// pongFloor is the least a ping waits for its pong.
const pongFloor = 5 * time.Second

// pingTimeout is how long a live stream's ping waits for its pong: the
// ping interval, but never under pongFloor, so a short interval does not
// drop a PC that is there but answers late on a busy host.
func (s *Server) pingTimeout() time.Duration { return max(s.opts.PingEvery, pongFloor) }
