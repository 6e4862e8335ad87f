package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
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
	checkHQReport(t, dsn, s1.BusinessDate, hq, tok1, do)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// checkHQReport: head office fetches the report over every branch, or a
// list, from the host; it is the report `jiaohao report --branch all`
// writes (generation time aside), and a branch's token, a code listed
// twice, an unknown code or a bad day is refused.
func checkHQReport(t *testing.T, dsn, day, hq, branchToken string, do func(method, path, token, body string, out any) int) {
	t.Helper()
	var rep struct {
		Name string `json:"name"`
		PDF  []byte `json:"pdf"`
		CSV  []byte `json:"csv"`
	}
	if code := do("GET", "/api/v1/hq/reports?from="+day+"&to="+day, hq, "", &rep); code != http.StatusOK || len(rep.PDF) == 0 {
		t.Fatalf("head office's report: %d, %d PDF bytes", code, len(rep.PDF))
	}
	dir := t.TempDir()
	runOK(t, "report", "--db", dsn, "--branch", "all", "--date", day, "--out", dir+"/all.pdf", "--csv", dir+"/all.csv")
	if got, want := withoutGenerated(rep.CSV), withoutGenerated(readOK(t, dir+"/all.csv")); got != want {
		t.Fatalf("head office's report over the link differs from the command's:\n%s\n---\n%s", got, want)
	}
	if !strings.Contains(string(rep.CSV), "branch,B001,") || !strings.Contains(string(rep.CSV), "branch,BJ001,") {
		t.Fatalf("the report names not both branches:\n%s", rep.CSV)
	}
	var one struct {
		CSV []byte `json:"csv"`
	}
	if code := do("GET", "/api/v1/hq/reports?branches=bj001&from="+day, hq, "", &one); code != http.StatusOK ||
		strings.Contains(string(one.CSV), "branch,B001,") || !strings.Contains(string(one.CSV), "branch,BJ001,") {
		t.Fatalf("head office's report of BJ001 alone: %d\n%s", code, one.CSV)
	}
	var refusal struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	for _, c := range []struct {
		query, token string
		want         int
	}{
		{"from=" + day, branchToken, http.StatusForbidden},
		{"branches=B001,b001&from=" + day, hq, http.StatusBadRequest},
		{"branches=NOPE&from=" + day, hq, http.StatusBadRequest},
		{"from=" + day + "&to=2026-13-01x", hq, http.StatusBadRequest},
		{"from=" + day + "&lang=fr", hq, http.StatusBadRequest},
	} {
		refusal.Code, refusal.Message = "", ""
		if code := do("GET", "/api/v1/hq/reports?"+c.query, c.token, "", &refusal); code != c.want || refusal.Message == "" {
			t.Errorf("head office's report with %s: %d %+v, want %d and a sentence", c.query, code, refusal, c.want)
		}
		if strings.Contains(c.query, "NOPE") && !strings.Contains(refusal.Message, "BJ001") {
			t.Errorf("an unknown code's refusal names not the branches there are: %q", refusal.Message)
		}
	}
}

// withoutGenerated is a report's CSV without its generation time.
func withoutGenerated(csv []byte) string {
	lines := strings.Split(string(csv), "\n")
	if len(lines) > 1 {
		lines = lines[2:]
	}
	return strings.Join(lines, "\n")
}

func readOK(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
