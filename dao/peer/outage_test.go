//go:build unix

package peer

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// The database stopped for 10 s under 4 kiosks and 4 callers: every
// request made while it is down is answered 503 (none 500), the log names
// the cause once when it goes and once when it is back, the server
// recovers without a restart, and afterwards no number is lost or issued
// twice, no ticket has two states, no event version is missing.
func TestDatabaseOutage(t *testing.T) {
	t.Run("postgres", func(t *testing.T) { outage(t, daotest.PrivatePostgres(t)) })
	t.Run("mariadb", func(t *testing.T) { outage(t, daotest.PrivateMariaDB(t)) })
}

// syncBuffer is a log sink the server's goroutines share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// outcomes are the answers the terminals got, by when the request ran.
type outcomes struct {
	mu            sync.Mutex
	taken         map[int64]string // answered 201: id -> number
	codes         map[string]int   // every error code seen
	duringOutage  int              // requests begun and ended while the database was down
	outageAnswers map[string]int   // their outcome: an error code, or "ok"
}

func (o *outcomes) record(began, ended int64, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	code := model.ErrorCode(err)
	if err != nil {
		o.codes[code]++
	}
	// Phase 1 is while the database is stopped.
	if began == ended && began == 1 {
		o.duringOutage++
		if err == nil {
			code = "ok"
		}
		o.outageAnswers[code]++
	}
}

func outage(t *testing.T, db *daotest.Private) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	st, err := sqlstore.Open(ctx, db.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.SetLogger(log)
	late := addToken(t, st, model.RoleScreen, 0) // a PC registered before, started during the outage
	e := newEnvOn(t, st, Options{Logger: log, TakePerMinute: -1})
	var kiosks, callers []*Client
	for i := 1; i <= 4; i++ {
		for _, c := range []struct {
			role model.Role
			win  int
			into *[]*Client
		}{{model.RoleKiosk, 0, &kiosks}, {model.RoleCaller, i, &callers}} {
			cl, err := Dial(ctx, e.ts.URL, addToken(t, st, c.role, c.win))
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			*c.into = append(*c.into, cl)
		}
	}

	var phase atomic.Int64 // 0 up, 1 stopped, 2 started again
	out := &outcomes{taken: map[int64]string{}, codes: map[string]int{}, outageAnswers: map[string]int{}}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	loop := func(step func() error) {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(40 * time.Millisecond):
			}
			began := phase.Load()
			err := step()
			out.record(began, phase.Load(), err)
		}
	}
	for i, k := range kiosks {
		service := []string{"A", "B"}[i%2]
		wg.Add(1)
		go loop(func() error {
			tk, err := k.TakeTicket(ctx, service, 0, "")
			if err == nil {
				out.mu.Lock()
				out.taken[tk.ID] = tk.Number
				out.mu.Unlock()
			}
			return err
		})
	}
	for i, c := range callers {
		win, cur := i+1, int64(0)
		wg.Add(1)
		go loop(func() error {
			if cur == 0 {
				tk, err := c.CallNext(ctx, win, "")
				if err == nil {
					cur = tk.ID
				}
				return err
			}
			tk, err := c.Ticket(ctx, cur)
			switch {
			case err != nil:
			case tk.Status == model.Called:
				_, err = c.StartServing(ctx, cur, win)
			case tk.Status == model.Serving:
				_, err = c.Finish(ctx, cur, win)
			default:
				cur = 0
			}
			return err
		})
	}

	time.Sleep(2 * time.Second)
	db.Stop()
	phase.Add(1)
	t.Logf("%s stopped", db.DSN[:strings.Index(db.DSN, ":")])
	time.Sleep(2 * time.Second)
	// While it is down: a PC starting now is told to wait, not refused; a
	// wrong token is refused as such; health says so.
	stranger, _, _ := NewToken()
	if c, err := Dial(ctx, e.ts.URL, stranger); err == nil || !model.IsCode(err, model.EUnauthorized) {
		t.Errorf("a token never registered, during the outage: %v, want unauthorized", err)
		if c != nil {
			c.Close()
		}
	}
	if c, err := Dial(ctx, e.ts.URL, late); err != nil && !model.IsCode(err, model.EUnavailable) {
		t.Errorf("a registered PC starting during the outage: %v, want success or unavailable", err)
	} else if c != nil {
		c.Close()
	}
	if status, b := e.call(t, "GET", "/api/v1/health", "", ""); status != http.StatusServiceUnavailable || errCode(t, b) != model.EUnavailable {
		t.Errorf("health during the outage: %d %s", status, b)
	}
	// A registered PC is still known for who it is: authentication needs
	// no database once the token's hash is known.
	if status, b := e.call(t, "GET", "/api/v1/whoami", late, ""); status != http.StatusOK || !strings.Contains(string(b), `"role":"screen"`) {
		t.Errorf("a registered PC's token during the outage: %d %s, want 200 with its role", status, b)
	}
	if status, b := e.call(t, "GET", "/api/v1/snapshot", "jh_not-a-real-token", ""); status != http.StatusUnauthorized {
		t.Errorf("a wrong token during the outage: %d %s, want 401", status, b)
	}
	time.Sleep(8 * time.Second)
	phase.Add(1)
	db.Start()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if status, _ := e.call(t, "GET", "/api/v1/health", "", ""); status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server did not recover after the database came back")
		}
		time.Sleep(200 * time.Millisecond)
	}
	out.mu.Lock()
	takenBefore := len(out.taken)
	out.mu.Unlock()
	time.Sleep(2 * time.Second)
	close(stop)
	wg.Wait()

	t.Logf("requests during the outage: %v; all errors: %v; %d numbers taken", out.outageAnswers, out.codes, len(out.taken))
	if out.duringOutage < 50 || out.outageAnswers[model.EUnavailable] != out.duringOutage {
		t.Errorf("%d requests during the outage answered %v: want all unavailable", out.duringOutage, out.outageAnswers)
	}
	if out.codes[model.EInternal] > 0 {
		t.Errorf("%d requests answered internal", out.codes[model.EInternal])
	}
	if len(out.taken) <= takenBefore {
		t.Error("no number was taken after the database came back")
	}
	text := logs.String()
	down, up := strings.Count(text, "database unavailable"), strings.Count(text, "database available again")
	if down != 1 || up != 1 || !strings.Contains(text, "cause=") {
		t.Errorf("the log has %d down and %d up lines, want one each with a cause:\n%s", down, up, grepLines(text, "database"))
	}
	t.Logf("log: %s", grepLines(text, "database"))
	if strings.Contains(text, db.Password) {
		t.Error("the password reached the log")
	}
	if strings.Contains(text, "status=500") {
		t.Error("a request was answered 500")
	}

	stored := daotest.CheckQueue(t, st)
	for id, number := range out.taken {
		if stored[id] != number {
			t.Fatalf("ticket %d was answered as %s but is stored as %q", id, number, stored[id])
		}
	}
}

func grepLines(text, word string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, word) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
