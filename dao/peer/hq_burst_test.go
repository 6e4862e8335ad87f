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
