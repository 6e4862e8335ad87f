package app

import (
	"context"
	"sort"
	"sync"
	"time"

	"jiaohao/dao"
	"jiaohao/model"
)

// benchResult is the one JSON line `jiaohao bench` prints. Calls,
// duplicates and skipped are counted from the database afterwards, not from
// the bench's own bookkeeping.
type benchResult struct {
	Engine     string  `json:"engine"`
	Windows    int     `json:"windows"`
	Tickets    int     `json:"tickets"`
	Calls      int64   `json:"calls"`
	CallsPerS  float64 `json:"calls_per_s"`
	P50ms      float64 `json:"p50_ms"`
	P99ms      float64 `json:"p99_ms"`
	Duplicates int64   `json:"duplicates"`
	Skipped    int64   `json:"skipped"`
}

// Bench windows and service live apart from the branch's own: windows
// 901.. serving only service Z, so a bench never calls a real customer.
const (
	benchService     = "Z"
	benchFirstWindow = 901
)

func runBench(ctx context.Context, s *dao.GormStore, windows, tickets int) (benchResult, error) {
	res := benchResult{Engine: s.Engine(), Windows: windows, Tickets: tickets}
	if _, err := s.SaveService(ctx, model.Service{Code: benchService, Name: "压测", Priority: 5, StartNo: 1, Enabled: true, SortOrder: 99}); err != nil {
		return res, err
	}
	for w := 0; w < windows; w++ {
		if _, err := s.SaveWindow(ctx, model.Window{Number: benchFirstWindow + w, Name: "压测", Services: []string{benchService}}); err != nil {
			return res, err
		}
	}
	var firstID int64
	if err := s.DB().WithContext(ctx).Raw("SELECT COALESCE(MAX(id), 0) FROM ticket").Scan(&firstID).Error; err != nil {
		return res, err
	}
	if err := benchTake(ctx, s, tickets); err != nil {
		return res, err
	}
	lat, elapsed, err := benchCall(ctx, s, windows)
	if err != nil {
		return res, err
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	res.P50ms, res.P99ms = percentileMS(lat, 0.50), percentileMS(lat, 0.99)
	db := s.DB().WithContext(ctx)
	if err := db.Raw("SELECT COUNT(*) FROM queue_event e JOIN ticket t ON t.id = e.ticket_id WHERE e.kind = ? AND t.id > ?",
		model.EvCall, firstID).Scan(&res.Calls).Error; err != nil {
		return res, err
	}
	if err := db.Raw("SELECT COALESCE(SUM(n - 1), 0) FROM (SELECT e.ticket_id, COUNT(*) AS n FROM queue_event e WHERE e.kind = ? AND e.ticket_id > ? GROUP BY e.ticket_id HAVING COUNT(*) > 1) AS d",
		model.EvCall, firstID).Scan(&res.Duplicates).Error; err != nil {
		return res, err
	}
	if err := db.Raw("SELECT COUNT(*) FROM ticket WHERE id > ? AND status = ?", firstID, int(model.Waiting)).Scan(&res.Skipped).Error; err != nil {
		return res, err
	}
	res.CallsPerS = float64(res.Calls) / elapsed.Seconds()
	return res, nil
}

// benchTake issues the tickets from 8 concurrent kiosks.
func benchTake(ctx context.Context, s dao.Store, tickets int) error {
	const kiosks = 8
	var wg sync.WaitGroup
	errs := make(chan error, kiosks)
	for k := 0; k < kiosks; k++ {
		n := tickets / kiosks
		if k < tickets%kiosks {
			n++
		}
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			for i := 0; i < n; i++ {
				if _, err := s.TakeTicket(ctx, benchService, 0, "bench"); err != nil {
					errs <- err
					return
				}
			}
		}(n)
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// benchCall lets every window call until its queue is empty and returns
// each call's latency.
func benchCall(ctx context.Context, s dao.Store, windows int) ([]time.Duration, time.Duration, error) {
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	errs := make(chan error, windows)
	start := time.Now()
	for w := 0; w < windows; w++ {
		wg.Add(1)
		go func(window int) {
			defer wg.Done()
			var mine []time.Duration
			for {
				t0 := time.Now()
				_, err := s.CallNext(ctx, window, "")
				if model.IsCode(err, model.EQueueEmpty) {
					break
				}
				if err != nil {
					errs <- err
					break
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}(benchFirstWindow + w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	return lat, elapsed, <-errs
}

func percentileMS(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p)
	return float64(sorted[i].Microseconds()) / 1000
}

func validateBench(windows, tickets int) error {
	if windows < 1 || windows > 98 {
		return model.Errorf(model.EInvalidInput, "--windows must be between 1 and 98, got %d", windows)
	}
	if tickets < 1 || tickets > 1000000 {
		return model.Errorf(model.EInvalidInput, "--tickets must be between 1 and 1000000, got %d", tickets)
	}
	return nil
}
