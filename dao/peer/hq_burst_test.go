package peer

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// A burst of events bigger than a subscriber's buffer drops head office's
// subscription to the branch's hub; subscribing again must not read the
// line at once, or a busy branch is read after every drop instead of once
// per Debounce.
func TestHQFeedBurstPastBuffer(t *testing.T) {
	const debounce = time.Second
	e := newHQEnv(t, daotest.SQLiteDSN(t), Options{TakePerMinute: -1, SubscriberBuffer: 1}, HQOptions{Debounce: debounce, Refresh: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	v := watchHQ(ctx, t, e.ts.URL, e.hq)
	v.wait(t, "both branches", func(v *hqView) bool { return v.full == 1 && len(v.lines) == 2 })
	r1 := e.counter(e.store.BranchID())
	start := time.Now()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 25 {
				must[model.Ticket](t, e.env, http.StatusCreated, "POST", "/api/v1/tickets", e.kiosk1, `{"service":"A"}`)
			}
		})
	}
	wg.Wait()
	burst := time.Since(start)
	v.wait(t, "a hundred waiting", func(v *hqView) bool { return v.lines["B001"].Waiting == 100 })
	allowed := 1 + 2 + int64(burst/debounce)
	t.Logf("100 takes in %s: %d reads (at most %d allowed)", burst, r1.Load(), allowed)
	if got := r1.Load(); got > allowed {
		t.Errorf("100 takes cost %d reads of B001's line in %s, want at most %d", got, burst, allowed)
	}
}

// A branch whose line cannot be read (its database does not answer) is
// not shown as live: its line is marked stale, needing attention, until a
// read succeeds again; a branch never read yet still has its line, by
// code and name.
func TestHQFeedStaleLine(t *testing.T) {
	e := newHQEnv(t, daotest.SQLiteDSN(t), Options{TakePerMinute: -1}, HQOptions{Debounce: 10 * time.Millisecond, Refresh: 100 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bj := e.failing(e.b2.BranchID())
	bj.Store(true)
	once := must[HQOverview](t, e.env, http.StatusOK, "GET", "/api/v1/hq/overview", e.hq, "")
	if len(once.Branches) != 2 || once.Branches[0].Code != "BJ001" || !once.Branches[0].Stale || once.Branches[1].Stale || once.Branches[1].OpenWindows != 4 {
		t.Fatalf("overview read once with BJ001 unreadable: %+v", once.Branches)
	}
	v := watchHQ(ctx, t, e.ts.URL, e.hq)
	v.wait(t, "BJ001 stale from the start", func(v *hqView) bool {
		l := v.lines["BJ001"]
		return l.Stale && l.Name == "北京分行" && l.Attention() && !v.lines["B001"].Stale
	})
	bj.Store(false)
	must[model.Ticket](t, e.env, http.StatusCreated, "POST", "/api/v1/tickets", e.kiosk2, `{"service":"A"}`)
	v.wait(t, "BJ001 read again", func(v *hqView) bool {
		l := v.lines["BJ001"]
		return !l.Stale && l.Waiting == 1 && l.OpenWindows == 4
	})
	e.failing(e.store.BranchID()).Store(true)
	v.wait(t, "B001 stale with its figures as last read", func(v *hqView) bool {
		l := v.lines["B001"]
		return l.Stale && l.OpenWindows == 4 && l.Attention()
	})
	got := must[HQOverview](t, e.env, http.StatusOK, "GET", "/api/v1/hq/overview", e.hq, "")
	if len(got.Branches) != 2 || got.Branches[0].Code != "B001" || !got.Branches[0].Stale || got.Branches[1].Stale {
		t.Fatalf("overview with B001 unreadable: %+v", got.Branches)
	}
}

// An overview that cannot be made in time (a slow database) is the
// host's "not available now" (503), which head office's PC starts on and
// retries, never an internal error, which it would stop at.
func TestHQOverviewTooSlow(t *testing.T) {
	const timeout = 300 * time.Millisecond
	var e *hqEnv
	e = newHQEnv(t, daotest.SQLiteDSN(t), Options{TakePerMinute: -1, RequestTimeout: timeout}, HQOptions{
		Branches: func(ctx context.Context) ([]model.BranchInfo, error) {
			time.Sleep(timeout + 50*time.Millisecond) // the list comes, but late
			return e.store.Branches(context.Background())
		},
	})
	status, b := e.call(t, "GET", "/api/v1/hq/overview", e.hq, "")
	if status != http.StatusServiceUnavailable || errCode(t, b) != model.EUnavailable {
		t.Errorf("an overview past its deadline: %d %s, want 503", status, b)
	}
}
