package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// `serve --branch all` answers every branch of the database on one
// address, each PC by its token: a kiosk of each branch takes its own
// branch's first number and sees its own branch's name, and one branch's
// ticket is 404 to the other's token; head office's token reads every
// branch's overview there.
func TestServeAllBranches(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	runOK(t, "branch", "add", "--db", dsn, "--code", "BJ001", "--name", "北京分行")
	tok1 := strings.TrimSpace(runOK(t, "token", "add", "--db", dsn, "--branch", "B001", "--role", "kiosk"))
	tok2 := strings.TrimSpace(runOK(t, "token", "add", "--db", dsn, "--branch", "BJ001", "--role", "kiosk"))
	ctx, cancel := context.WithCancel(context.Background())
	var stderr daotest.LogBuffer
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, []string{"--db", dsn, "--branch", "all", "--listen", "127.0.0.1:0", "--sweep", "0"}, &bytes.Buffer{}, &stderr)
	}()
	addr := regexp.MustCompile(`serving every branch of the database on (http://[0-9.:]+)`)
	var base string
	for base == "" {
		if m := addr.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
			break
		}
		select {
		case err := <-done:
			t.Fatalf("serve ended: %v\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	do := func(method, path, token, body string, out any) int {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if out != nil {
			_ = json.NewDecoder(resp.Body).Decode(out)
		}
		return resp.StatusCode
	}
	var t1, t2 model.Ticket
	var s1, s2 model.Snapshot
	if do("POST", "/api/v1/tickets", tok2, `{"service":"A"}`, &t2) != http.StatusCreated || do("POST", "/api/v1/tickets", tok1, `{"service":"A"}`, &t1) != http.StatusCreated {
		t.Fatal("a kiosk could not take a number")
	}
	do("GET", "/api/v1/snapshot", tok1, "", &s1)
	do("GET", "/api/v1/snapshot", tok2, "", &s2)
	if t1.Number != "A001" || t2.Number != "A001" || s1.Branch != "营业网点" || s2.Branch != "北京分行" {
		t.Fatalf("tickets %s and %s in branches %q and %q", t1.Number, t2.Number, s1.Branch, s2.Branch)
	}
	if code := do("GET", "/api/v1/tickets/"+itoa(t2.ID), tok1, "", nil); code != http.StatusNotFound {
		t.Fatalf("branch 1's kiosk reading branch 2's ticket: %d, want 404", code)
	}
	// Head office's token, issued naming no branch, reads both branches'
	// lines here and no branch's queue; a branch's token is refused there.
	hq := strings.TrimSpace(runOK(t, "token", "add", "--db", dsn, "--role", "hq"))
	var o struct {
		Branches []model.BranchOverview `json:"branches"`
		Total    model.BranchOverview   `json:"total"`
	}
	if code := do("GET", "/api/v1/hq/overview", hq, "", &o); code != http.StatusOK || len(o.Branches) != 2 || o.Total.Waiting != 2 {
		t.Fatalf("head office's overview: %d %+v", code, o)
	}
	if code := do("GET", "/api/v1/snapshot", hq, "", nil); code != http.StatusUnauthorized {
		t.Fatalf("head office reading a branch's snapshot: %d, want 401", code)
	}
	if code := do("GET", "/api/v1/hq/overview", tok1, "", nil); code != http.StatusForbidden {
		t.Fatalf("a branch's kiosk on head office's overview: %d, want 403", code)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
