package peer

import (
	"context"
	"encoding/json"
	"fmt"
	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// Commit-to-subscriber latency with 200 WebSocket subscribers: from the
// start of a take on the server's store until each subscriber has read the
// event. Reports p50 and p99 over every (event, subscriber) pair.
func BenchmarkFanout200(b *testing.B) {
	e := newEnv(b, Options{TakePerMinute: -1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const subs = 200
	var (
		mu      sync.Mutex
		started = map[int64]time.Time{}
		lats    []time.Duration
		got     = make(chan struct{}, subs)
	)
	url := "ws" + strings.TrimPrefix(e.ts.URL, "http") + "/api/v1/events"
	for i := 0; i < subs; i++ {
		conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + e.tokens[model.RoleScreen]}}})
		if err != nil {
			b.Fatal(err)
		}
		defer conn.CloseNow()
		go func() {
			for {
				_, data, err := conn.Read(ctx)
				if err != nil {
					return
				}
				now := time.Now()
				var m struct{ Version int64 } // a subscriber on another PC decodes the rest
				json.Unmarshal(data, &m)
				mu.Lock()
				lats = append(lats, now.Sub(started[m.Version]))
				mu.Unlock()
				got <- struct{}{}
			}
		}()
	}
	v := e.version(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v++
		mu.Lock()
		started[v] = time.Now()
		mu.Unlock()
		if _, err := e.store.TakeTicket(ctx, "A", 0, "bench"); err != nil {
			b.Fatal(err)
		}
		for j := 0; j < subs; j++ {
			<-got
		}
	}
	b.StopTimer()
	slices.Sort(lats)
	pct := func(p float64) float64 { return float64(lats[int(p*float64(len(lats)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// HTTP take throughput: 16 kiosks taking numbers at once, on every engine
// whose server is set.
func BenchmarkHTTPTake(b *testing.B) {
	for _, engine := range daotest.Engines() {
		b.Run(engine, func(b *testing.B) {
			st, err := sqlstore.Open(context.Background(), daotest.BenchDSN(b, engine))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			e := newEnvOn(b, st, Options{TakePerMinute: -1})
			benchParallel(b, 16, "takes/s", func(int) (string, string) { return "/api/v1/tickets", `{"service":"A"}` }, http.StatusCreated, e)
		})
	}
}

// HTTP call throughput: four windows calling at once from a long queue.
func BenchmarkHTTPCall(b *testing.B) {
	e := newEnv(b, Options{TakePerMinute: -1})
	for i := 0; i < b.N; i++ {
		if _, err := e.store.TakeTicket(context.Background(), "A", 0, "bench"); err != nil {
			b.Fatal(err)
		}
	}
	benchParallel(b, 4, "calls/s", func(w int) (string, string) { return fmt.Sprintf("/api/v1/windows/%d/call", w+1), "" }, http.StatusOK, e)
}

// benchParallel runs b.N POSTs spread over n workers as the manager.
func benchParallel(b *testing.B, n int, unit string, req func(worker int) (string, string), want int, e *env) {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	var left atomic.Int64
	left.Store(int64(b.N))
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path, body := req(w)
			for left.Add(-1) >= 0 {
				r, _ := http.NewRequest("POST", e.ts.URL+path, strings.NewReader(body))
				r.Header.Set("Authorization", "Bearer "+e.tokens[model.RoleManager])
				resp, err := hc.Do(r)
				if err != nil {
					b.Error(err)
					return
				}
				var v json.RawMessage
				json.NewDecoder(resp.Body).Decode(&v)
				resp.Body.Close()
				if resp.StatusCode != want {
					b.Errorf("%s: %d %s", path, resp.StatusCode, v)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), unit)
}
