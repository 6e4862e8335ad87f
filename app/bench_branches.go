package app

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// branchesResult is the JSON line of `jiaohao bench --branches N`. The
// latencies are per branch, then summarised over the branches: the median
// branch and the worst. Calls, duplicates and skipped come from the
// database after the run.
type branchesResult struct {
	Engine      string  `json:"engine"`
	Branches    int     `json:"branches"`
	Windows     int     `json:"windows"`
	Pool        int     `json:"pool"`
	Saturate    bool    `json:"saturate"`
	RatePerS    float64 `json:"rate_per_branch,omitempty"` // calls/s each branch is asked for
	Seconds     float64 `json:"seconds"`
	Calls       int64   `json:"calls"`
	Takes       int64   `json:"takes"`
	CallsPerS   float64 `json:"calls_per_s"` // all branches together
	P50ms       float64 `json:"p50_ms"`      // over every call of every branch
	P99ms       float64 `json:"p99_ms"`
	BranchP50ms spread  `json:"branch_p50_ms"`
	BranchP99ms spread  `json:"branch_p99_ms"`
	Empty       int64   `json:"empty"` // calls that found the queue empty
	Duplicates  int64   `json:"duplicates"`
	Skipped     int64   `json:"skipped"`
	LoadAvg     string  `json:"load_avg,omitempty"` // at the end, where the system tells it
}

// spread is one per-branch figure over the branches.
type spread struct {
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

type branchesOptions struct {
	branches, windows int
	rate              float64 // calls/s a branch, open loop
	seconds           float64
	saturate          bool
	tickets           int // a branch's backlog when saturating
}

// benchBranchCode is the code of bench branch i (from 1): BENCH001….
func benchBranchCode(i int) string { return fmt.Sprintf("BENCH%03d", i) }

// benchBranch is one branch under load: its store (sharing the pool), the
// ids its run took, and its calls' latencies.
type benchBranch struct {
	s           *sqlstore.GormStore
	first, last int64 // its tickets are first < id <= last
	v0, v1      int64 // its versions around the timed calls
	// phase shifts its schedule by this part of one step: branches are
	// not in step with each other, so a hundred do not call in the same
	// millisecond every second.
	phase float64
	lat   []time.Duration
	takes atomic.Int64
	empty atomic.Int64
}

// runBranchesBench loads opts.branches bench branches of root's database
// at once, through stores sharing root's pool as `serve --branch all`
// does, each followed by a watch as the server's would be. Every branch
// first takes a backlog. Open loop, each branch's windows then call at
// fixed times (rate calls/s in all, spread over the windows) while a kiosk
// takes at the same rate; a call's latency runs from the time it was due,
// so a call held up counts its wait, and the schedule does not slow down
// to suit the database. Saturated, the windows call the backlog back to
// back. Then every branch calls what is left, untimed, so the audit can
// expect each ticket called exactly once.
func runBranchesBench(ctx context.Context, root *sqlstore.GormStore, o branchesOptions) (branchesResult, error) {
	res := branchesResult{Engine: root.Engine(), Branches: o.branches, Windows: o.windows, Pool: root.PoolSize(), Saturate: o.saturate}
	if !o.saturate {
		res.RatePerS = o.rate
	}
	bs, err := openBenchBranches(ctx, root, o)
	defer func() {
		for _, b := range bs {
			b.s.Close()
		}
	}()
	if err != nil {
		return res, err
	}
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	for _, b := range bs {
		if err := follow(wctx, b.s); err != nil {
			return res, err
		}
	}
	if err := eachBranch(bs, func(b *benchBranch) error { return b.backlog(ctx, o) }); err != nil {
		return res, err
	}
	if err := eachBranch(bs, func(b *benchBranch) (err error) { b.v0, err = b.s.Version(ctx); return err }); err != nil {
		return res, err
	}
	start := time.Now()
	if err := eachBranch(bs, func(b *benchBranch) error { return b.timed(ctx, o) }); err != nil {
		return res, err
	}
	elapsed := time.Since(start)
	if err := eachBranch(bs, func(b *benchBranch) error { return b.rest(ctx, o) }); err != nil {
		return res, err
	}
	if !o.saturate {
		elapsed = time.Duration(o.seconds * float64(time.Second)) // the schedule's length
	}
	res.Seconds = round3(elapsed.Seconds())
	return res, summarise(ctx, &res, bs, elapsed)
}

// openBenchBranches finds or adds the bench branches, with service Z and
// windows 901.. each, and opens their stores on root's pool.
func openBenchBranches(ctx context.Context, root *sqlstore.GormStore, o branchesOptions) ([]*benchBranch, error) {
	have, err := root.Branches(ctx)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, b := range have {
		known[b.Code] = true
	}
	var bs []*benchBranch
	for i := 1; i <= o.branches; i++ {
		code := benchBranchCode(i)
		if !known[code] {
			if _, err := root.AddBranch(ctx, model.BranchInfo{Code: code, Name: "压测 " + code, TimeZone: "Asia/Shanghai"}, ""); err != nil {
				return bs, err
			}
		}
		s, err := root.Branch(ctx, code)
		if err != nil {
			return bs, err
		}
		bs = append(bs, &benchBranch{s: s, phase: float64(i-1) / float64(o.branches)})
		if err := benchWindows(ctx, s, o.windows); err != nil {
			return bs, err
		}
	}
	return bs, nil
}

// benchWindows gives a branch the bench's service and windows.
func benchWindows(ctx context.Context, s *sqlstore.GormStore, windows int) error {
	if _, err := s.SaveService(ctx, model.Service{Code: benchService, Name: "压测", Priority: 5, StartNo: 1, Enabled: true, SortOrder: 99}); err != nil {
		return err
	}
	for w := 0; w < windows; w++ {
		if _, err := s.SaveWindow(ctx, model.Window{Number: benchFirstWindow + w, Name: "压测", Services: []string{benchService}}); err != nil {
			return err
		}
	}
	return nil
}

// follow drains a watch of the branch, as its server's event hub would.
func follow(ctx context.Context, s *sqlstore.GormStore) error {
	v, err := s.Version(ctx)
	if err != nil {
		return err
	}
	ch, err := s.Watch(ctx, v)
	if err != nil {
		return err
	}
	go func() {
		for range ch {
		}
	}()
	return nil
}

// eachBranch runs fn for every branch at once and returns the first error.
func eachBranch(bs []*benchBranch, fn func(*benchBranch) error) error {
	var wg sync.WaitGroup
	errs := make(chan error, len(bs))
	for _, b := range bs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fn(b); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}
