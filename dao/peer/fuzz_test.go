package peer

import (
	"bytes"
	"context"
	"jiaohao/model"
	"net/http"
	"net/http/httptest"
	"net/url"
	pathpkg "path"
	"strconv"
	"strings"
	"testing"
)

// Fuzz targets, one per request decoder. Whatever arrives: no panic, no
// 500, and a refused request leaves the queue exactly as it was. The seed
// corpora live in testdata/fuzz and run with every plain `go test`.

// fuzzEnv is a server with a few waiting tickets, reached without a
// network so fuzzing runs fast.
type fuzzEnv struct {
	*env
	h  http.Handler
	id string // a waiting ticket
}

func newFuzzEnv(f *testing.F) *fuzzEnv {
	e := newEnv(f, Options{TakePerMinute: -1})
	var id int64
	for i := 0; i < 3; i++ {
		tk, err := e.store.TakeTicket(context.Background(), "A", 0, "fuzz")
		if err != nil {
			f.Fatal(err)
		}
		id = tk.ID
	}
	return &fuzzEnv{env: e, h: e.srv.Handler(), id: strconv.FormatInt(id, 10)}
}

// check sends one request as the manager and applies the invariants.
func (fe *fuzzEnv) check(t *testing.T, method, path string, body []byte) {
	before := fe.version(t)
	req := &http.Request{Method: method, URL: &url.URL{Path: path}, Header: http.Header{},
		Body: nopCloser{bytes.NewReader(body)}, Host: "example.test", ContentLength: int64(len(body))}
	req = req.WithContext(context.Background())
	req.Header.Set("Authorization", "Bearer "+fe.tokens[model.RoleManager])
	rec := httptest.NewRecorder()
	fe.h.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Fatalf("%s %q %q: status %d %s", method, path, body, rec.Code, rec.Body)
	}
	if rec.Code >= 400 && fe.version(t) != before {
		t.Fatalf("%s %q %q: refused with %d but the queue changed", method, path, body, rec.Code)
	}
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

func FuzzTake(f *testing.F) {
	fe := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, body []byte) { fe.check(t, "POST", "/api/v1/tickets", body) })
}

func FuzzDevice(f *testing.F) {
	fe := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, body []byte) { fe.check(t, "POST", "/api/v1/devices", body) })
}

func FuzzCall(f *testing.F) {
	fe := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, body []byte) { fe.check(t, "POST", "/api/v1/windows/1/call", body) })
}

func FuzzAction(f *testing.F) {
	fe := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, action string, body []byte) {
		fe.check(t, "POST", "/api/v1/tickets/"+fe.id+"/"+url.PathEscape(action), body)
	})
}

func FuzzTransfer(f *testing.F) {
	fe := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, body []byte) { fe.check(t, "POST", "/api/v1/tickets/"+fe.id+"/transfer", body) })
}

func FuzzWindowStatus(f *testing.F) {
	fe := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, body []byte) { fe.check(t, "PUT", "/api/v1/windows/2/status", body) })
}

func FuzzWindowServices(f *testing.F) {
	fe := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, body []byte) { fe.check(t, "PUT", "/api/v1/windows/2/services", body) })
}

func FuzzSaveWindow(f *testing.F) {
	fe := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, body []byte) { fe.check(t, "PUT", "/api/v1/windows/3", body) })
}

func FuzzSaveService(f *testing.F) {
	fe := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, code string, body []byte) {
		fe.check(t, "PUT", "/api/v1/services/"+url.PathEscape(code), body)
	})
}

func FuzzSetting(f *testing.F) {
	fe := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, key string, body []byte) {
		fe.check(t, "PUT", "/api/v1/settings/"+url.PathEscape(key), body)
	})
}

// FuzzPath covers the path and query decoders: ids, window numbers, public
// ids, since and limit.
func FuzzPath(f *testing.F) {
	fe := newFuzzEnv(f)
	f.Fuzz(func(t *testing.T, method, path, query string) {
		switch method {
		case "GET", "POST", "PUT", "DELETE":
		default:
			method = "GET"
		}
		if path == "" || path[0] != '/' {
			path = "/" + path
		}
		if c := pathpkg.Clean(path); strings.HasSuffix(c, "/events") || strings.HasSuffix(c, "/live") {
			return // WebSocket upgrades need a real connection; the events tests cover them
		}
		fe.checkQuery(t, method, path, query)
	})
}

func (fe *fuzzEnv) checkQuery(t *testing.T, method, path, query string) {
	before := fe.version(t)
	req := &http.Request{Method: method, URL: &url.URL{Path: path, RawQuery: query}, Header: http.Header{},
		Body: http.NoBody, Host: "example.test"}
	req.Header.Set("Authorization", "Bearer "+fe.tokens[model.RoleManager])
	rec := httptest.NewRecorder()
	fe.h.ServeHTTP(rec, req.WithContext(context.Background()))
	if rec.Code >= 500 {
		t.Fatalf("%s %q?%q: status %d %s", method, path, query, rec.Code, rec.Body)
	}
	if rec.Code >= 400 && fe.version(t) != before {
		t.Fatalf("%s %q: refused with %d but the queue changed", method, path, rec.Code)
	}
}
