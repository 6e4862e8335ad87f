package peer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A kiosk's take over HTTP while the hall's customers watch their tickets:
// 0 or 2,000 live pages (500 waiting tickets of service A, 4 pages each,
// from 32 client addresses so no cap refuses them). A normal number moves
// nobody's place; a VIP number (priority 1 in A) moves every page. Reports
// the take's p50 and p99; compare pages=0 with pages=2000.
func BenchmarkTakeWithLivePages(b *testing.B) {
	for _, engine := range daotest.Engines() {
		b.Run(engine, func(b *testing.B) {
			for _, take := range []struct{ name, body string }{
				{"normal", `{"service":"A"}`},
				{"vip", `{"service":"A","priority":1}`},
			} {
				for _, pages := range []int{0, 2000} {
					b.Run(fmt.Sprintf("take=%s/pages=%d", take.name, pages), func(b *testing.B) {
						benchTakeWithPages(b, engine, take.body, pages)
					})
				}
			}
		})
	}
}

func benchTakeWithPages(b *testing.B, engine, body string, pages int) {
	raiseFileLimit(b, uint64(4*pages+1024))
	st, err := sqlstore.Open(context.Background(), daotest.BenchDSN(b, engine))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	e := newEnvOn(b, st, Options{TakePerMinute: -1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const perTicket, perAddr = 4, 64
	var pids []string
	for i := 0; i < pages/perTicket; i++ {
		tk, err := st.TakeTicket(ctx, "A", 0, "bench")
		if err != nil {
			b.Fatal(err)
		}
		pids = append(pids, tk.PublicID)
	}
	for i, pid := range pids {
		for j := 0; j < perTicket; j++ {
			n := i*perTicket + j
			c, _, err := dialLive(ctx, e, pid, fmt.Sprintf("127.0.0.%d", 2+n/perAddr))
			if err != nil {
				b.Fatalf("page %d: %v", n, err)
			}
			defer c.CloseNow()
			go func() {
				for {
					if _, _, err := c.Read(ctx); err != nil {
						return
					}
				}
			}()
		}
	}
	hc := &http.Client{}
	lats := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req, _ := http.NewRequest("POST", e.ts.URL+"/api/v1/tickets", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+e.tokens[model.RoleKiosk])
		start := time.Now()
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var tk Ticket
		decodeErr := jsonDecode(resp, &tk)
		lats = append(lats, time.Since(start))
		if resp.StatusCode != http.StatusCreated || decodeErr != nil {
			b.Fatalf("take: %d %v", resp.StatusCode, decodeErr)
		}
	}
	b.StopTimer()
	slices.Sort(lats)
	pct := func(p float64) float64 { return float64(lats[int(p*float64(len(lats)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

func jsonDecode(resp *http.Response, v any) error {
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(v)
}
