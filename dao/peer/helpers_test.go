package peer

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// env is a running peer server on a fresh SQLite store, with one token per
// role (the caller acts for window 1).
type env struct {
	store  *sqlstore.GormStore
	srv    *Server
	ts     *httptest.Server
	tokens map[model.Role]string
}

func newEnv(t testing.TB, opts Options) *env {
	t.Helper()
	return newEnvOn(t, daotest.SQLite(t), opts)
}

func newEnvOn(t testing.TB, st *sqlstore.GormStore, opts Options) *env {
	t.Helper()
	return newEnvServing(t, st, st, opts)
}

// newEnvServing serves front (st itself, or a wrapper that watches what the
// server asks of it) with st's tokens.
func newEnvServing(t testing.TB, front model.Store, st *sqlstore.GormStore, opts Options) *env {
	t.Helper()
	srv := NewServer(front, st, opts)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); ts.Close() })
	<-srv.hub.ready // the store's watch is running before the test writes
	e := &env{store: st, srv: srv, ts: ts, tokens: map[model.Role]string{}}
	for _, r := range model.Roles() {
		win := 0
		if r.Window {
			win = 1
		}
		var terms model.Terminals = st
		if r.HeadOffice {
			terms = st.HeadOffice() // head office's token belongs to no branch
		}
		e.tokens[r.Role] = addToken(t, terms, r.Role, win)
	}
	return e
}

func addToken(t testing.TB, st model.Terminals, role model.Role, window int) string {
	t.Helper()
	tok, hash, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddTerminal(context.Background(), model.Terminal{Name: string(role), Role: role, Window: window, TokenHash: hash}); err != nil {
		t.Fatalf("add terminal: %v", err)
	}
	return tok
}

// call sends one request; body "" sends none.
func (e *env) call(t testing.TB, method, path, token, body string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// must sends a request that must answer want, and decodes the answer.
func must[T any](t testing.TB, e *env, want int, method, path, token, body string) T {
	t.Helper()
	status, b := e.call(t, method, path, token, body)
	if status != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, status, want, b)
	}
	var v T
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&v); err != nil {
		t.Fatalf("%s %s: decode %s: %v", method, path, b, err)
	}
	return v
}

func (e *env) version(t testing.TB) int64 {
	t.Helper()
	snap, err := e.store.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return snap.Version
}

func (e *env) client(t testing.TB, role model.Role) *Client {
	t.Helper()
	c, err := Dial(context.Background(), e.ts.URL, e.tokens[role])
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func errCode(t testing.TB, b []byte) string {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("error body %q: %v", b, err)
	}
	return e.Code
}

func errMessage(t testing.TB, b []byte) string {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("error body %q: %v", b, err)
	}
	return e.Message
}

// waitFor polls cond (on every platform: frozen_test.go is unix-only); the deadline only turns a hang into a failure.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
