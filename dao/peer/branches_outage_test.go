package peer

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// downDirectory is a directory whose database does not answer.
type downDirectory struct{}

func (downDirectory) TokenBranch(context.Context, string) (int64, error) {
	return 0, model.Errorf(model.EUnavailable, "数据库暂不可用 (database unavailable)")
}

func (downDirectory) TicketBranch(context.Context, string) (int64, error) {
	return 0, model.Errorf(model.EUnavailable, "数据库暂不可用 (database unavailable)")
}

// A PC of another branch than home's, first seen while the database does
// not answer (the directory cannot say whose token it is, or the branch's
// server cannot be opened), gets 503 and keeps retrying, as a PC of a
// one-branch server does; never 401, which its client takes as a rejected
// token and gives up on.
func TestBranchesOutageIsUnavailableNotUnauthorized(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := context.Background()
	if _, err := st.AddBranch(ctx, model.BranchInfo{Code: "BJ001", Name: "北京分行", TimeZone: "Asia/Shanghai"}, ""); err != nil {
		t.Fatal(err)
	}
	b2, err := st.Branch(ctx, "BJ001")
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	tok2 := addToken(t, b2, model.RoleKiosk, 0)
	for _, c := range []struct {
		name string
		dir  Directory
		open OpenFunc
	}{
		{"directory down", downDirectory{}, func(context.Context, int64) (*Server, error) {
			t.Error("opened a branch the directory never named")
			return nil, context.Canceled
		}},
		{"branch cannot open", st, func(context.Context, int64) (*Server, error) {
			return nil, model.Errorf(model.EUnavailable, "数据库暂不可用 (database unavailable)")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := NewServer(st, st, Options{TakePerMinute: -1})
			srv := NewBranches(home, st.BranchID(), c.dir, c.open)
			ts := httptest.NewServer(srv.Handler())
			defer func() { srv.Close(); ts.Close() }()
			e := &env{store: st, srv: home, ts: ts}
			status, body := e.call(t, "GET", "/api/v1/whoami", tok2, "")
			if status != http.StatusServiceUnavailable || errCode(t, body) != model.EUnavailable {
				t.Fatalf("branch 2's kiosk while its branch cannot be reached: %d %s, want 503", status, body)
			}
			if _, err := Dial(ctx, ts.URL, tok2); err != nil && !IsUnreachable(err) {
				t.Fatalf("branch 2's PC dialling while its branch cannot be reached: %v, want unreachable", err)
			}
		})
	}
}

// A branch whose server is slow to open (its database stopped answering
// for a moment) holds only its own first requests: another branch opening
// at the same time, and one already open, answer at once.
func TestBranchesSlowOpenHoldsOnlyItsBranch(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := context.Background()
	stores := map[int64]*sqlstore.GormStore{}
	tokens := map[string]string{}
	for _, code := range []string{"SLOW1", "FAST1"} {
		if _, err := st.AddBranch(ctx, model.BranchInfo{Code: code, Name: code, TimeZone: "Asia/Shanghai"}, ""); err != nil {
			t.Fatal(err)
		}
		b, err := st.Branch(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		stores[b.BranchID()] = b
		tokens[code] = addToken(t, b, model.RoleKiosk, 0)
	}
	slow, _ := st.Branch(ctx, "SLOW1")
	defer slow.Close()
	release := make(chan struct{})
	var once sync.Once
	defer once.Do(func() { close(release) })
	home := NewServer(st, st, Options{TakePerMinute: -1})
	srv := NewBranches(home, st.BranchID(), st, func(ctx context.Context, id int64) (*Server, error) {
		if id == slow.BranchID() {
			select {
			case <-release:
			case <-ctx.Done():
				return nil, model.Errorf(model.EUnavailable, "数据库暂不可用 (database unavailable)")
			}
		}
		return NewServer(stores[id], stores[id], Options{TakePerMinute: -1}), nil
	})
	ts := httptest.NewServer(srv.Handler())
	defer func() { srv.Close(); ts.Close() }()
	e := &env{store: st, srv: home, ts: ts}
	tok1 := addToken(t, st, model.RoleKiosk, 0)

	slowDone := make(chan int, 1)
	go func() {
		status, _ := e.call(t, "GET", "/api/v1/whoami", tokens["SLOW1"], "")
		slowDone <- status
	}()
	time.Sleep(200 * time.Millisecond) // the slow branch is opening
	for _, c := range []struct{ name, tok string }{{"home", tok1}, {"another branch", tokens["FAST1"]}} {
		start := time.Now()
		status, body := e.call(t, "GET", "/api/v1/whoami", c.tok, "")
		if status != http.StatusOK {
			t.Fatalf("%s while a branch opens: %d %s", c.name, status, body)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("%s waited %v for another branch's server to open", c.name, d)
		}
	}
	once.Do(func() { close(release) })
	if status := <-slowDone; status != http.StatusOK {
		t.Fatalf("the slow branch, once open: %d", status)
	}
}

// A branch added while one server serves every branch is served at once,
// with its own name and numbering; a token made for it before it had any
// request, and one of a branch opened earlier, both work, and neither
// reaches the other's ticket.
func TestBranchesAddedWhileServing(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		st, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var mu sync.Mutex
		var opened []*sqlstore.GormStore
		defer func() {
			for _, s := range opened {
				s.Close()
			}
		}()
		home := NewServer(st, st, Options{TakePerMinute: -1})
		srv := NewBranches(home, st.BranchID(), st, func(ctx context.Context, id int64) (*Server, error) {
			b, err := st.BranchByID(ctx, id)
			if err != nil {
				return nil, err
			}
			mu.Lock()
			opened = append(opened, b)
			mu.Unlock()
			return NewServer(b, b, Options{TakePerMinute: -1}), nil
		})
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		sctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- srv.Serve(sctx, ln) }()
		defer func() { stop(); <-done }()
		client := httptest.NewServer(http.NotFoundHandler()) // for its client: the requests go to Serve's address
		defer client.Close()
		client.URL = "http://" + ln.Addr().String()
		e := &env{store: st, srv: home, ts: client}
		kiosk1 := addToken(t, st, model.RoleKiosk, 0)
		t1 := must[model.Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", kiosk1, `{"service":"A"}`)

		if _, err := st.AddBranch(ctx, model.BranchInfo{Code: "NEW01", Name: "新网点", TimeZone: "Asia/Shanghai"}, ""); err != nil {
			t.Fatal(err)
		}
		b2, err := st.Branch(ctx, "NEW01")
		if err != nil {
			t.Fatal(err)
		}
		defer b2.Close()
		kiosk2, man2 := addToken(t, b2, model.RoleKiosk, 0), addToken(t, b2, model.RoleManager, 0)
		t2 := must[model.Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", kiosk2, `{"service":"A"}`)
		if t2.Number != "A001" || t1.Number != "A001" {
			t.Fatalf("first numbers %s and %s, want A001 in each branch", t1.Number, t2.Number)
		}
		if snap := must[model.Snapshot](t, e, http.StatusOK, "GET", "/api/v1/snapshot", man2, ""); snap.Branch != "新网点" {
			t.Fatalf("the new branch's snapshot is %q's", snap.Branch)
		}
		for _, q := range []struct {
			tok string
			id  int64
		}{{kiosk1, t2.ID}, {man2, t1.ID}} {
			if status, b := e.call(t, "GET", fmt.Sprintf("/api/v1/tickets/%d", q.id), q.tok, ""); status != http.StatusNotFound {
				t.Fatalf("another branch's ticket %d: %d %s, want 404", q.id, status, b)
			}
		}
		// The new branch's stream follows it live: it was started by Serve's context.
		c2, err := Dial(ctx, e.ts.URL, man2)
		if err != nil {
			t.Fatal(err)
		}
		defer c2.Close()
		evs, err := c2.Watch(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		t3 := must[model.Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", kiosk2, `{"service":"A"}`)
		for {
			select {
			case ev := <-evs:
				if ev.TicketID == t1.ID {
					t.Fatal("the new branch's stream carried branch 1's take")
				}
				if ev.TicketID == t3.ID {
					return
				}
			case <-ctx.Done():
				t.Fatal("the new branch's take never reached its stream")
			}
		}
	})
}

// Many PCs of several branches reach a server of every branch at the same
// moment, before any of their branches is open: each branch's Server is
// opened once (a second would be a second event tail and sweeper, never
// closed), and every PC is answered by its own branch.
func TestBranchesFirstRequestsAtOnce(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := context.Background()
	codes := []string{"BJ001", "SH001", "GZ001"}
	stores := map[int64]*sqlstore.GormStore{}
	tokens := map[string]string{}
	for _, code := range codes {
		if _, err := st.AddBranch(ctx, model.BranchInfo{Code: code, Name: "网点" + code, TimeZone: "Asia/Shanghai"}, ""); err != nil {
			t.Fatal(err)
		}
		b, err := st.Branch(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		stores[b.BranchID()] = b
		tokens[code] = addToken(t, b, model.RoleScreen, 0)
	}
	var mu sync.Mutex
	opens := map[int64]int{}
	home := NewServer(st, st, Options{TakePerMinute: -1})
	srv := NewBranches(home, st.BranchID(), st, func(ctx context.Context, id int64) (*Server, error) {
		mu.Lock()
		opens[id]++
		mu.Unlock()
		time.Sleep(50 * time.Millisecond) // the requests pile up meanwhile
		return NewServer(stores[id], stores[id], Options{TakePerMinute: -1}), nil
	})
	ts := httptest.NewServer(srv.Handler())
	defer func() { srv.Close(); ts.Close() }()
	e := &env{store: st, srv: home, ts: ts}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 30 {
		code := codes[i%len(codes)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, body := e.call(t, "GET", "/api/v1/snapshot", tokens[code], "")
			if status != http.StatusOK || !strings.Contains(string(body), "网点"+code) {
				errs <- fmt.Sprintf("a PC of %s: %d %.80s", code, status, body)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for id, n := range opens {
		if n != 1 {
			t.Errorf("branch %d's Server opened %d times", id, n)
		}
	}
	if len(opens) != len(codes) {
		t.Errorf("opened %v, want each of %d branches once", opens, len(codes))
	}
}

// Serving every branch opens each one's Server from the start, with no PC
// of it asking yet, so its timers and health check run after a restart
// before its PCs are back; a request later finds it open and opens nothing
// again.
func TestBranchesOpenedBeforeTheirFirstRequest(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := context.Background()
	var ids []int64
	stores := map[int64]*sqlstore.GormStore{}
	token := ""
	for _, code := range []string{"BJ001", "SH001"} {
		if _, err := st.AddBranch(ctx, model.BranchInfo{Code: code, Name: "网点" + code, TimeZone: "Asia/Shanghai"}, ""); err != nil {
			t.Fatal(err)
		}
		b, err := st.Branch(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		ids = append(ids, b.BranchID())
		stores[b.BranchID()] = b
		token = addToken(t, b, model.RoleScreen, 0)
	}
	var mu sync.Mutex
	opens := map[int64]int{}
	home := NewServer(st, st, Options{TakePerMinute: -1})
	srv := NewBranches(home, st.BranchID(), st, func(ctx context.Context, id int64) (*Server, error) {
		mu.Lock()
		opens[id]++
		mu.Unlock()
		return NewServer(stores[id], stores[id], Options{TakePerMinute: -1}), nil
	})
	defer srv.Close()
	srv.Open(ids...)
	// A Server is kept just after its open returns: wait for the keeping,
	// not for the count of opens.
	deadline := time.Now().Add(10 * time.Second)
	for _, id := range ids {
		for {
			if _, ok := srv.servers.Load(id); ok {
				break
			}
			if time.Now().After(deadline) {
				mu.Lock()
				defer mu.Unlock()
				t.Fatalf("branch %d not kept open with no request (opens %v)", id, opens)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	e := &env{store: st, srv: home, ts: ts}
	if status, body := e.call(t, "GET", "/api/v1/snapshot", token, ""); status != http.StatusOK || !strings.Contains(string(body), "网点SH001") {
		t.Fatalf("a PC of SH001: %d %.80s", status, body)
	}
	mu.Lock()
	defer mu.Unlock()
	for id, n := range opens {
		if n != 1 {
			t.Errorf("branch %d opened %d times", id, n)
		}
	}
}
