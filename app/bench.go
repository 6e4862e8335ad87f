package app

import (
	"context"
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// benchResult is the one JSON line `jiaohao bench` prints. Calls,
// duplicates and skipped are counted from the database afterwards, not from
// the bench's own bookkeeping. With --compare, the same work is also done
// in seed 002's shape (one branch-wide lock first) and a bare one-row bump
// measures the ceiling, interleaved round by round; rates are medians.
type benchResult struct {
	Engine     string  `json:"engine"`
	Windows    int     `json:"windows"`
	Tickets    int     `json:"tickets"`
	Rounds     int     `json:"rounds"`
	Calls      int64   `json:"calls"`
	CallsPerS  float64 `json:"calls_per_s"`
	P50ms      float64 `json:"p50_ms"`
	P99ms      float64 `json:"p99_ms"`
	Duplicates int64   `json:"duplicates"`
	Skipped    int64   `json:"skipped"`

	BaselineCallsPerS float64 `json:"baseline_calls_per_s,omitempty"`
	BaselineP50ms     float64 `json:"baseline_p50_ms,omitempty"`
	BaselineP99ms     float64 `json:"baseline_p99_ms,omitempty"`
	Ratio             float64 `json:"ratio,omitempty"` // calls_per_s / baseline_calls_per_s
	CeilingCallsPerS  float64 `json:"ceiling_calls_per_s,omitempty"`
	CeilingRatio      float64 `json:"ceiling_ratio,omitempty"` // calls_per_s / ceiling_calls_per_s
}

// Bench windows and service live apart from the branch's own: windows
// 901.. serving only service Z, so a bench never calls a real customer.
const (
	benchService     = "Z"
	benchFirstWindow = 901
)

// benchOptions says what one bench run does.
type benchOptions struct {
	windows, tickets int
	rounds           int  // 0: 1, or 3 with compare
	compare          bool // also the global-lock shape and the ceiling
}

// phase is one shape's take-then-call-everything run, counted from the
// database.
type phase struct {
	calls, duplicates, skipped int64
	perS                       float64
	lat                        []time.Duration // sorted
}

func runBench(ctx context.Context, s *sqlstore.GormStore, o benchOptions) (benchResult, error) {
	if o.rounds == 0 {
		o.rounds = 1
		if o.compare {
			o.rounds = 3
		}
	}
	res := benchResult{Engine: s.Engine(), Windows: o.windows, Tickets: o.tickets, Rounds: o.rounds}
	if _, err := s.SaveService(ctx, model.Service{Code: benchService, Name: "压测", Priority: 5, StartNo: 1, Enabled: true, SortOrder: 99}); err != nil {
		return res, err
	}
	for w := 0; w < o.windows; w++ {
		if _, err := s.SaveWindow(ctx, model.Window{Number: benchFirstWindow + w, Name: "压测", Services: []string{benchService}}); err != nil {
			return res, err
		}
	}
	var design, serial []phase
	var ceiling []float64
	for r := 0; r < o.rounds; r++ {
		p, err := benchPhase(ctx, s, o, s.CallNext)
		if err != nil {
			return res, err
		}
		design = append(design, p)
		if !o.compare {
			continue
		}
		p, err = benchPhase(ctx, s, o, func(ctx context.Context, w int, _ string) (model.Ticket, error) { return s.CallNextSerial(ctx, w) })
		if err != nil {
			return res, err
		}
		serial = append(serial, p)
		c, err := benchCeiling(ctx, s, o.windows, o.tickets)
		if err != nil {
			return res, err
		}
		ceiling = append(ceiling, c)
	}
	d := medianPhase(design)
	res.CallsPerS, res.P50ms, res.P99ms = d.perS, percentileMS(d.lat, 0.50), percentileMS(d.lat, 0.99)
	for _, p := range append(design, serial...) {
		res.Calls += p.calls
		res.Duplicates += p.duplicates
		res.Skipped += p.skipped
	}
	if o.compare {
		b := medianPhase(serial)
		res.BaselineCallsPerS, res.BaselineP50ms, res.BaselineP99ms = b.perS, percentileMS(b.lat, 0.50), percentileMS(b.lat, 0.99)
		res.CeilingCallsPerS = median(ceiling)
		res.Ratio = round3(res.CallsPerS / res.BaselineCallsPerS)
		res.CeilingRatio = round3(res.CallsPerS / res.CeilingCallsPerS)
	}
	return res, nil
}

// benchRequestTimeout bounds each call and bump as the server bounds a
// request, so they are measured as a window's request runs, deadline and
// all (on PostgreSQL a write checks it before its commit).
const benchRequestTimeout = 5 * time.Second

// benchPhase takes o.tickets numbers, lets o.windows windows call them all
// with call, and counts what happened from the database.
func benchPhase(ctx context.Context, s *sqlstore.GormStore, o benchOptions, call callFunc) (phase, error) {
	var p phase
	firstID, err := s.LastTicketID(ctx)
	if err != nil {
		return p, err
	}
	if err := benchTake(ctx, s, o.tickets); err != nil {
		return p, err
	}
	lastID, err := s.LastTicketID(ctx)
	if err != nil {
		return p, err
	}
	lat, elapsed, err := benchCall(ctx, call, o.windows)
	if err != nil {
		return p, err
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p.lat = lat
	if p.calls, p.duplicates, p.skipped, err = s.CallAudit(ctx, firstID, lastID); err != nil {
		return p, err
	}
	p.perS = float64(p.calls) / elapsed.Seconds()
	return p, nil
}

// benchCeiling runs n one-row bumps from the given number of clients and
// returns bumps per second.
func benchCeiling(ctx context.Context, s *sqlstore.GormStore, clients, n int) (float64, error) {
	var left atomic.Int64
	left.Store(int64(n))
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left.Add(-1) >= 0 {
				rctx, cancel := context.WithTimeout(ctx, benchRequestTimeout)
				err := s.BumpCeiling(rctx)
				cancel()
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return float64(n) / time.Since(start).Seconds(), <-errs
}

// medianPhase is the round with the median rate.
func medianPhase(ps []phase) phase {
	sorted := slices.Clone(ps)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].perS < sorted[j].perS })
	return sorted[len(sorted)/2]
}

func median(v []float64) float64 {
	sorted := slices.Clone(v)
	sort.Float64s(sorted)
	return sorted[len(sorted)/2]
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

type callFunc func(ctx context.Context, window int, service string) (model.Ticket, error)

// benchTake issues the tickets from 8 concurrent kiosks.
func benchTake(ctx context.Context, s model.Store, tickets int) error {
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
func benchCall(ctx context.Context, call callFunc, windows int) ([]time.Duration, time.Duration, error) {
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
				rctx, cancel := context.WithTimeout(ctx, benchRequestTimeout)
				_, err := call(rctx, window, "")
				cancel()
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

func validateBench(windows, tickets, rounds int) error {
	if rounds < 0 || rounds > 9 {
		return model.Errorf(model.EInvalidInput, "--rounds must be between 1 and 9, got %d", rounds)
	}
	if windows < 1 || windows > 98 {
		return model.Errorf(model.EInvalidInput, "--windows must be between 1 and 98, got %d", windows)
	}
	if tickets < 1 || tickets > 1000000 {
		return model.Errorf(model.EInvalidInput, "--tickets must be between 1 and 1000000, got %d", tickets)
	}
	return nil
}
