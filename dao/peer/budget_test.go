package peer

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// postgresDSN is a fresh PostgreSQL database, or a skip (a failure in CI).
func postgresDSN(t *testing.T) string {
	t.Helper()
	return daotest.ServerDSN(t, daotest.EnvPostgres)
}

// 1,000 screens, each with its own token, connect at once to a host on
// PostgreSQL: every one gets its snapshot and its event stream, the host
// never holds more than its pool of connections (requests wait their turn
// inside the process instead of being refused by the server), and the next
// event reaches all of them.
func TestThousandSubscribersOnPostgres(t *testing.T) {
	const n = 1000
	raiseFileLimit(t, 4*n+1024)
	dsn := postgresDSN(t)
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := newEnvOn(t, st, Options{})
	tokens := make([]string, n)
	for i := range tokens {
		tokens[i] = addToken(t, st, model.RoleScreen, 0)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	// Count the server's connections to this database from outside.
	mon, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer mon.Close()
	var peak atomic.Int64
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		for ctx.Err() == nil {
			var c int64
			err := mon.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_stat_activity
				WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&c)
			if err == nil && c > peak.Load() {
				peak.Store(c)
			}
			time.Sleep(5 * time.Millisecond) // sampling, not asserting
		}
	}()

	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	wsURL := "ws" + strings.TrimPrefix(e.ts.URL, "http") + "/api/v1/events?since="
	conns := make([]*websocket.Conn, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			auth := http.Header{"Authorization": {"Bearer " + tokens[i]}}
			req, _ := http.NewRequestWithContext(ctx, "GET", e.ts.URL+"/api/v1/snapshot", nil)
			req.Header = auth
			resp, err := hc.Do(req)
			if err != nil {
				errs[i] = err
				return
			}
			var snap model.Snapshot
			err = json.NewDecoder(resp.Body).Decode(&snap)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || err != nil || len(snap.Windows) == 0 {
				errs[i] = fmt.Errorf("snapshot: %d %v", resp.StatusCode, err)
				return
			}
			c, resp, err := websocket.Dial(ctx, wsURL+fmt.Sprint(snap.Version), &websocket.DialOptions{HTTPHeader: auth})
			if err != nil {
				status := 0
				if resp != nil {
					status = resp.StatusCode
				}
				errs[i] = fmt.Errorf("events: %d %v", status, err)
				return
			}
			conns[i] = c
		}()
	}
	close(start)
	wg.Wait()
	failed := 0
	for i, err := range errs {
		if err != nil {
			if failed++; failed <= 5 {
				t.Errorf("subscriber %d: %v", i, err)
			}
		} else {
			defer conns[i].CloseNow()
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d subscribers failed", failed, n)
	}

	tk, err := st.TakeTicket(ctx, "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	var got atomic.Int64
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				_, b, err := c.Read(ctx)
				if err != nil {
					return
				}
				var m message
				if json.Unmarshal(b, &m) == nil && m.Ticket != nil && m.Ticket.ID == tk.ID {
					got.Add(1)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got.Load() != n {
		t.Fatalf("the take reached %d of %d subscribers", got.Load(), n)
	}
	cancel()
	<-watching
	if p := peak.Load(); p > sqlstore.DefaultPool || p == 0 {
		t.Fatalf("the host held %d connections at once, want 1-%d", p, sqlstore.DefaultPool)
	} else {
		t.Logf("peak connections: %d of a pool of %d", p, sqlstore.DefaultPool)
	}
}

// downStore is a store whose database cannot answer.
type downStore struct{ *sqlstore.GormStore }

var errDown = model.Errorf(model.EUnavailable, "数据库暂时无法连接 (database unreachable)")

func (downStore) Snapshot(context.Context) (model.Snapshot, error) { return model.Snapshot{}, errDown }

// Probe is what health asks of a real store: the write probe fails too.
func (downStore) Probe(context.Context) (int64, error) { return 0, errDown }

func (downStore) TakeTicket(context.Context, string, int, string) (model.Ticket, error) {
	return model.Ticket{}, errDown
}

// Every 503 says when to try again, as every 429 does.
func TestUnavailableSaysRetryAfter(t *testing.T) {
	gs := daotest.SQLite(t)
	e := newEnvServing(t, downStore{gs}, gs, Options{})
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/api/v1/snapshot", ""},
		{"POST", "/api/v1/tickets", `{"service":"A"}`},
		{"GET", "/api/v1/health", ""},
	} {
		req, _ := http.NewRequest(c.method, e.ts.URL+c.path, strings.NewReader(c.body))
		req.Header.Set("Authorization", "Bearer "+e.tokens[model.RoleKiosk])
		resp, err := e.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body errorBody
		json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || body.Code != model.EUnavailable || resp.Header.Get("Retry-After") != retryUnavailable {
			t.Errorf("%s %s: %d %+v Retry-After %q, want 503 unavailable with Retry-After %s",
				c.method, c.path, resp.StatusCode, body, resp.Header.Get("Retry-After"), retryUnavailable)
		}
	}
}

// A host whose pool is all in use makes a request wait for a connection,
// and past the request's deadline answers 503 with Retry-After, not 500:
// here the pool is one connection on PostgreSQL, held elsewhere, and the
// deadline the test's (the server's own applies in production).
func TestExhaustedPoolIs503(t *testing.T) {
	st, err := sqlstore.Open(context.Background(), postgresDSN(t)+"?pool=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := newEnvOn(t, st, Options{})
	inner := e.srv.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 500*time.Millisecond)
		defer cancel()
		inner.ServeHTTP(w, r.WithContext(ctx))
	}))
	defer ts.Close()
	e.ts = ts
	must[model.Snapshot](t, e, http.StatusOK, "GET", "/api/v1/snapshot", e.tokens[model.RoleScreen], "") // the token is now known
	db, err := st.DB().DB()
	if err != nil {
		t.Fatal(err)
	}
	hold, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", e.ts.URL+"/api/v1/snapshot", nil)
	req.Header.Set("Authorization", "Bearer "+e.tokens[model.RoleScreen])
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body errorBody
	json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || body.Code != model.EUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("with the pool exhausted: %d %+v Retry-After %q, want 503 with Retry-After", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}
	hold.Close()
	must[model.Snapshot](t, e, http.StatusOK, "GET", "/api/v1/snapshot", e.tokens[model.RoleScreen], "")
}
