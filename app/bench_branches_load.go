package app

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"jiaohao/model"
)

// backlog takes the tickets a branch starts with: two a window open loop
// (a kiosk keeps the queue at that), the whole run saturated.
func (b *benchBranch) backlog(ctx context.Context, o branchesOptions) (err error) {
	if b.first, err = b.s.LastTicketID(ctx); err != nil {
		return err
	}
	n := 2 * o.windows
	if o.saturate {
		n = o.tickets
	}
	for range n {
		if err := b.take(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (b *benchBranch) take(ctx context.Context) error {
	if _, err := b.s.TakeTicket(ctx, benchService, 0, "bench"); err != nil {
		return err
	}
	b.takes.Add(1)
	return nil
}

// timed is the measured part: the backlog called back to back, or the
// open loop for its seconds.
func (b *benchBranch) timed(ctx context.Context, o branchesOptions) (err error) {
	if o.saturate {
		b.lat, _, err = benchCall(ctx, b.s.CallNext, o.windows)
	} else {
		err = b.openLoop(ctx, o)
	}
	if err != nil {
		return err
	}
	b.v1, err = b.s.Version(ctx)
	return err
}

// rest calls, untimed, what the timed part left waiting.
func (b *benchBranch) rest(ctx context.Context, o branchesOptions) (err error) {
	if b.last, err = b.s.LastTicketID(ctx); err != nil {
		return err
	}
	_, _, err = benchCall(ctx, b.s.CallNext, o.windows)
	return err
}

// openLoop runs the branch's windows and kiosk on their schedules: window
// w calls at start + (phase + w + k·windows)/rate, the kiosk takes at
// start + (phase + k + ½)/rate, until the seconds are up.
func (b *benchBranch) openLoop(ctx context.Context, o branchesOptions) error {
	step := time.Duration(float64(time.Second) / o.rate) // between two calls of the branch
	end := time.Now().Add(time.Duration(o.seconds * float64(time.Second)))
	start := time.Now().Add(time.Duration(b.phase * float64(step)))
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, o.windows+1)
	for w := range o.windows {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			defer func() { mu.Lock(); b.lat = append(b.lat, mine...); mu.Unlock() }()
			for due := start.Add(time.Duration(w) * step); due.Before(end); due = due.Add(time.Duration(o.windows) * step) {
				if !sleepUntil(ctx, due) {
					return
				}
				_, err := b.s.CallNext(ctx, benchFirstWindow+w, "")
				switch {
				case model.IsCode(err, model.EQueueEmpty):
					b.empty.Add(1)
				case err != nil:
					errs <- err
					return
				default:
					mine = append(mine, time.Since(due))
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for due := start.Add(step / 2); due.Before(end); due = due.Add(step) {
			if !sleepUntil(ctx, due) {
				return
			}
			if err := b.take(ctx); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return ctx.Err()
}

// sleepUntil waits for t; false when ctx ends first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// summarise fills res from the branches' latencies and the database's
// audit of their tickets and events.
func summarise(ctx context.Context, res *branchesResult, bs []*benchBranch, elapsed time.Duration) error {
	var all []time.Duration
	var p50s, p99s []float64
	var timedCalls int64
	for _, b := range bs {
		slices.Sort(b.lat)
		all = append(all, b.lat...)
		p50s, p99s = append(p50s, percentileMS(b.lat, 0.50)), append(p99s, percentileMS(b.lat, 0.99))
		calls, dup, skipped, err := b.s.CallAudit(ctx, b.first, b.last)
		if err != nil {
			return err
		}
		n, err := b.s.CallsBetween(ctx, b.v0, b.v1)
		if err != nil {
			return err
		}
		timedCalls += n
		res.Calls, res.Duplicates, res.Skipped = res.Calls+calls, res.Duplicates+dup, res.Skipped+skipped
		res.Takes += b.takes.Load()
		res.Empty += b.empty.Load()
	}
	slices.Sort(all)
	res.P50ms, res.P99ms = percentileMS(all, 0.50), percentileMS(all, 0.99)
	res.BranchP50ms, res.BranchP99ms = spreadOf(p50s), spreadOf(p99s)
	res.CallsPerS = round3(float64(timedCalls) / elapsed.Seconds())
	res.LoadAvg = loadAverage()
	return nil
}

func spreadOf(v []float64) spread {
	if len(v) == 0 {
		return spread{}
	}
	slices.Sort(v)
	return spread{Median: v[len(v)/2], Max: v[len(v)-1]}
}

// loadAverage is the system's 1, 5 and 15 minute load where it tells them
// (Linux), for the figures it belongs beside.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
