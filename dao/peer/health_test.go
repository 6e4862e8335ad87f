package peer

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"jiaohao/model"
)

// hostHealth stands in for the host's health check: it records what it
// was asked and answers a fixed check.
type hostHealth struct {
	mu    sync.Mutex
	asked []string
	last  model.HealthCheck
}

func (h *hostHealth) LastHealthCheck(context.Context) (model.HealthCheck, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.last.Date == "" {
		return h.last, model.Errorf(model.ENotFound, "尚未做过健康检查 (no health check yet)")
	}
	return h.last, nil
}

func (h *hostHealth) RunHealthCheck(_ context.Context, date string) (model.HealthCheck, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked = append(h.asked, date)
	h.last = model.HealthCheck{Date: date, At: time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC), Host: "host-pc", Dir: "/srv/jiaohao/health",
		Files: model.HealthFiles(date), Taken: 42, Stuck: 3, PassedOver: []string{"A"}, Flagged: true}
	return h.last, nil
}

// A manager PC sees the host's last check and has it check a day now,
// through the client; other roles are refused, a bad date changes nothing.
func TestHealthCheckThroughThePeer(t *testing.T) {
	h := &hostHealth{}
	e := newEnv(t, Options{Health: h})
	ctx := context.Background()
	c, err := Dial(ctx, e.ts.URL, e.tokens[model.RoleManager])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.LastHealthCheck(ctx); model.ErrorCode(err) != model.ENotFound {
		t.Fatalf("before any check: %v, want not_found", err)
	}
	got, err := c.RunHealthCheck(ctx, "2026-11-02")
	if err != nil {
		t.Fatal(err)
	}
	last, err := c.LastHealthCheck(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if last.Date != "2026-11-02" || last.Stuck != 3 || !last.Flagged || last.Dir != got.Dir || len(last.Files) != 4 || !last.At.Equal(got.At) {
		t.Fatalf("last check through the peer %+v, ran %+v", last, got)
	}
	for _, role := range []model.Role{model.RoleKiosk, model.RoleCaller, model.RoleScreen} {
		for _, m := range []string{"GET", "POST"} {
			if status, _ := e.call(t, m, "/api/v1/healthcheck", e.tokens[role], `{"date":"2026-11-03"}`); status != http.StatusForbidden {
				t.Errorf("%s as %s: %d, want 403", m, role, status)
			}
		}
	}
	for _, body := range []string{`{"date":"02/11/2026"}`, `{"date":"2026-11-02","dir":"/etc"}`} {
		if status, b := e.call(t, "POST", "/api/v1/healthcheck", e.tokens[model.RoleManager], body); status != http.StatusBadRequest || errCode(t, b) != "invalid_input" {
			t.Errorf("%s: %d %s, want 400 invalid_input", body, status, b)
		}
	}
	if len(h.asked) != 1 || h.asked[0] != "2026-11-02" {
		t.Fatalf("the host was asked %v, want only the manager's one day", h.asked)
	}
	bare := newEnv(t, Options{})
	if status, b := bare.call(t, "GET", "/api/v1/healthcheck", bare.tokens[model.RoleManager], ""); status != http.StatusServiceUnavailable || errCode(t, b) != "unavailable" {
		t.Fatalf("a server without the check: %d %s", status, b)
	}
}
