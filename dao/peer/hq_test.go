package peer

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// Head office's token reads every branch's overview and nothing of any
// branch: on a branch's routes it is answered as a token of no branch is
// (401), and nothing changes; a branch's own tokens, its manager's too,
// are refused on head office's routes (403: a manager sees only their
// branch); a revoked head-office token is no token, and its open stream
// ends.
func TestHQTokenAuth(t *testing.T) {
	e := newHQEnv(t, daotest.SQLiteDSN(t), Options{TakePerMinute: -1, PingEvery: 50 * time.Millisecond}, HQOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tk := must[model.Ticket](t, e.env, http.StatusCreated, "POST", "/api/v1/tickets", e.kiosk1, `{"service":"A"}`)

	got := must[HQOverview](t, e.env, http.StatusOK, "GET", "/api/v1/hq/overview", e.hq, "")
	if len(got.Branches) != 2 || got.Branches[0].Code != "B001" || got.Branches[1].Code != "BJ001" ||
		got.Branches[0].Waiting != 1 || got.Branches[1].Waiting != 0 || got.Total.Waiting != 1 || got.Total.OpenWindows != 8 {
		t.Fatalf("overview %+v", got)
	}

	for name, tok := range map[string]string{"branch 1's manager": e.man1, "branch 2's manager": e.man2, "a kiosk": e.kiosk1} {
		for _, path := range []string{"/api/v1/hq/overview", "/api/v1/hq/live"} {
			status, b := e.call(t, "GET", path, tok, "")
			if status != http.StatusForbidden || errCode(t, b) != model.EForbidden {
				t.Errorf("%s on %s: %d %s, want 403", name, path, status, b)
			}
		}
	}
	for name, tok := range map[string]string{"no token": "", "a wrong token": "jh_not-a-real-token"} {
		if status, b := e.call(t, "GET", "/api/v1/hq/overview", tok, ""); status != http.StatusUnauthorized || errCode(t, b) != model.EUnauthorized {
			t.Errorf("%s on the overview: %d %s, want 401", name, status, b)
		}
	}

	// On a branch's routes head office's token is no branch's.
	for _, q := range []struct{ method, path, body string }{
		{"POST", "/api/v1/tickets", `{"service":"A"}`},
		{"GET", fmt.Sprintf("/api/v1/tickets/%d", tk.ID), ""},
		{"POST", fmt.Sprintf("/api/v1/tickets/%d/cancel", tk.ID), `{"window":1}`},
		{"POST", "/api/v1/windows/1/call", `{}`},
		{"PUT", "/api/v1/windows/1/status", `{"status":"paused"}`},
		{"GET", "/api/v1/windows", ""},
		{"GET", "/api/v1/snapshot", ""},
		{"GET", "/api/v1/eventlog?since=0", ""},
		{"GET", "/api/v1/events?since=0", ""},
		{"PUT", "/api/v1/settings/notice", `{"value":"总部"}`},
		{"GET", "/api/v1/terminals", ""},
		{"GET", "/api/v1/reports?from=2026-03-01", ""},
	} {
		status, b := e.call(t, q.method, q.path, e.hq, q.body)
		wantStatus, wantBody := e.call(t, q.method, q.path, "jh_not-a-real-token", q.body)
		if status != http.StatusUnauthorized || status != wantStatus || string(b) != string(wantBody) {
			t.Errorf("head office %s %s: %d %s, want %d %s as for a token of no branch", q.method, q.path, status, b, wantStatus, wantBody)
		}
	}
	hc, err := NewClient(e.ts.URL, e.hq, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hc.Close()
	if _, err := hc.Watch(ctx, 0); model.ErrorCode(err) != model.EUnauthorized {
		t.Errorf("head office watching branch events: %v, want unauthorized", err)
	}
	mc, err := NewClient(e.ts.URL, e.man1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mc.Close()
	if _, err := mc.WatchOverview(ctx); model.ErrorCode(err) != model.EForbidden || model.ErrorMessage(err) != model.ErrorMessage(errNotHeadOffice) {
		t.Errorf("a manager's live overview: %v, want the host's own refusal", err)
	}
	if tk2, err := e.store.Ticket(ctx, tk.ID); err != nil || tk2.Status != model.Waiting {
		t.Fatalf("the ticket after head office's tries: %+v %v", tk2, err)
	}
	if snap, err := e.store.Snapshot(ctx); err != nil || snap.Services[0].Waiting != 1 || snap.Notice == "总部" {
		t.Fatalf("branch 1 after head office's tries: %v %+v", err, snap.Services)
	}
	// A branch's manager cannot issue a head-office token.
	body := `{"name":"hq","role":"hq","token_hash":"` + HashToken("jh_x") + `"}`
	if status, b := e.call(t, "POST", "/api/v1/terminals", e.man1, body); status != http.StatusBadRequest {
		t.Errorf("a manager adding an hq token: %d %s, want 400", status, b)
	}

	// Revoked: no token, and the stream open before ends at its next ping.
	live := watchHQ(ctx, t, e.ts.URL, e.hq)
	live.wait(t, "the first lines", func(v *hqView) bool { return v.full == 1 && len(v.lines) == 2 })
	terms, err := e.store.HeadOffice().Terminals(ctx)
	if err != nil || len(terms) != 1 {
		t.Fatalf("head office's terminals %+v %v", terms, err)
	}
	if err := e.store.HeadOffice().RevokeTerminal(ctx, terms[0].ID); err != nil {
		t.Fatal(err)
	}
	live.wait(t, "its stream end when revoked", func(v *hqView) bool { return v.down })
	if status, b := e.call(t, "GET", "/api/v1/hq/overview", e.hq, ""); status != http.StatusUnauthorized || errCode(t, b) != model.EUnauthorized {
		t.Errorf("a revoked hq token: %d %s, want 401", status, b)
	}
	if _, err := hc.WatchOverview(ctx); model.ErrorCode(err) != model.EUnauthorized {
		t.Errorf("a revoked hq token's live overview: %v, want unauthorized", err)
	}
}

// Many head-office PCs share one feed: ten watching cost one read of each
// branch's line to start, and a burst of numbers taken in one branch costs
// at most one read of that line per Debounce (plus the first), however
// many PCs watch, and none of the other branch's. Every PC sees the right
// figures on the right branch's line.
func TestHQFeedShared(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		const debounce = time.Second
		e := newHQEnv(t, dsn, Options{TakePerMinute: -1}, HQOptions{Debounce: debounce, Refresh: time.Hour})
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		views := make([]*hqView, 10)
		for i := range views {
			views[i] = watchHQ(ctx, t, e.ts.URL, e.hq)
		}
		for _, v := range views {
			v.wait(t, "both branches", func(v *hqView) bool { return v.full == 1 && len(v.lines) == 2 })
		}
		id1, id2 := e.store.BranchID(), e.b2.BranchID()
		r1, r2 := e.counter(id1), e.counter(id2)
		if a, b := r1.Load(), r2.Load(); a != 1 || b != 1 {
			t.Fatalf("ten PCs starting cost %d and %d reads of the two lines, want one each", a, b)
		}
		start := time.Now()
		for range 5 {
			must[model.Ticket](t, e.env, http.StatusCreated, "POST", "/api/v1/tickets", e.kiosk1, `{"service":"A"}`)
		}
		burst := time.Since(start)
		for _, v := range views {
			v.wait(t, "five waiting in B001 and none in BJ001", func(v *hqView) bool {
				return v.lines["B001"].Waiting == 5 && v.lines["BJ001"].Waiting == 0
			})
		}
		allowed := 1 + 2 + int64(burst/debounce) // the first, the leading and trailing reads, one per Debounce between
		t.Logf("ten PCs, five takes in %s: %d reads of B001's line (at most %d allowed), %d of BJ001's", burst, r1.Load(), allowed, r2.Load())
		if got := r1.Load(); got > allowed {
			t.Errorf("five takes watched by ten PCs cost %d reads of B001's line in %s, want at most %d", got, burst, allowed)
		}
		if got := r2.Load(); got != 1 {
			t.Errorf("B001's takes cost %d reads of BJ001's line, want none beyond its first", got-1)
		}
		// A call in BJ001 changes its line only.
		must[model.Ticket](t, e.env, http.StatusCreated, "POST", "/api/v1/tickets", e.kiosk2, `{"service":"A"}`)
		must[model.Ticket](t, e.env, http.StatusOK, "POST", "/api/v1/windows/1/call", e.man2, `{}`)
		for _, v := range views {
			v.wait(t, "BJ001 serving one", func(v *hqView) bool {
				b1, b2 := v.lines["B001"], v.lines["BJ001"]
				return b2.Serving == 1 && b2.Waiting == 0 && b1.Waiting == 5 && b1.Serving == 0
			})
		}
	})
}

// The feed finds a branch added while serving at its next refresh, and
// reads the lines again without events: a waiting customer's wait grows
// on an idle hall's line.
func TestHQFeedRefreshes(t *testing.T) {
	e := newHQEnv(t, daotest.SQLiteDSN(t), Options{TakePerMinute: -1}, HQOptions{Debounce: 10 * time.Millisecond, Refresh: 100 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	must[model.Ticket](t, e.env, http.StatusCreated, "POST", "/api/v1/tickets", e.kiosk1, `{"service":"A"}`)
	vctx, leave := context.WithCancel(ctx)
	v := watchHQ(vctx, t, e.ts.URL, e.hq)
	var first time.Duration
	v.wait(t, "a customer waiting in B001", func(v *hqView) bool {
		first = v.lines["B001"].LongestWait
		return v.lines["B001"].Waiting == 1 && first > 0
	})
	v.wait(t, "the wait grow without an event", func(v *hqView) bool { return v.lines["B001"].LongestWait > first })
	if _, err := e.store.AddBranch(ctx, model.BranchInfo{Code: "SH001", Name: "上海分行", TimeZone: "Asia/Shanghai"}, ""); err != nil {
		t.Fatal(err)
	}
	v.wait(t, "the new branch", func(v *hqView) bool {
		return v.lines["SH001"].Name == "上海分行" && v.lines["SH001"].OpenWindows == 4
	})
	got := must[HQOverview](t, e.env, http.StatusOK, "GET", "/api/v1/hq/overview", e.hq, "")
	if len(got.Branches) != 3 || got.Total.OpenWindows != 12 {
		t.Fatalf("overview with the new branch: %+v", got)
	}
	// The last PC leaving stops the feed: nothing is read for nobody.
	leave()
	f := e.srv.hq.feed
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		f.mu.Lock()
		running := f.cancel != nil
		f.mu.Unlock()
		if !running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the feed still runs after its last PC left")
		}
	}
	time.Sleep(50 * time.Millisecond) // a read begun as it stopped ends
	reads := e.counter(e.store.BranchID()).Load()
	time.Sleep(300 * time.Millisecond) // three refreshes' worth
	if got := e.counter(e.store.BranchID()).Load(); got != reads {
		t.Errorf("%d reads of B001's line with no PC watching", got-reads)
	}
}

// A line's longest wait grows from the moment it was read while someone
// waits, and not when nobody does.
func TestHQLineAged(t *testing.T) {
	at := time.Now()
	l := hqLine{o: model.BranchOverview{Waiting: 2, LongestWait: time.Minute}, at: at}
	if got := l.aged(at.Add(30 * time.Second)).LongestWait; got != 90*time.Second {
		t.Errorf("aged 30 s: %s", got)
	}
	if got := (hqLine{o: model.BranchOverview{}, at: at}).aged(at.Add(time.Hour)).LongestWait; got != 0 {
		t.Errorf("nobody waiting, aged: %s", got)
	}
	// A line the host cannot read now is as last read: whoever waited then
	// may have been called since.
	stale := hqLine{o: model.BranchOverview{Waiting: 2, LongestWait: time.Minute, Stale: true}, at: at}
	if got := stale.aged(at.Add(time.Hour)).LongestWait; got != time.Minute {
		t.Errorf("stale line aged an hour: %s, want as last read", got)
	}
}
