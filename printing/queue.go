package printing

import (
	"context"
	"fmt"
	"log"
	"sync"
	"time"

	"jiaohao/model"
)

// QueueConfig sets up a PrintQueue. Only Printer and Header are required.
type QueueConfig struct {
	Printer    Printer
	Header     HeaderFunc
	Capacity   int           // jobs kept while the printer is out; default 50
	MinBackoff time.Duration // first retry wait; default 1s
	MaxBackoff time.Duration // longest retry wait; default 30s
	Timeout    time.Duration // one attempt; default 30s
	Logf       func(format string, args ...any)
}

// PrintQueue prints tickets in the background, one kiosk's worth: Submit
// returns at once, a worker sends each job and retries a failing printer
// with backoff, keeping the jobs in order until it recovers.
type PrintQueue struct {
	cfg     QueueConfig
	mu      sync.Mutex
	printer Printer
	jobs    []*printJob
	last    *printJob
	fault   string
	dropped int
	changed signal // fired on every change of jobs or fault
	cancel  context.CancelFunc
	done    chan struct{}
}

type printJob struct {
	ticket model.Ticket
	pos    model.Position
	slip   *Slip // rendered on the first attempt, reused by retries and reprints
}

// NewPrintQueue starts the worker; Close stops it.
func NewPrintQueue(cfg QueueConfig) *PrintQueue {
	if cfg.Capacity <= 0 {
		cfg.Capacity = 50
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = time.Second
	}
	if cfg.MaxBackoff < cfg.MinBackoff {
		cfg.MaxBackoff = max(30*time.Second, cfg.MinBackoff)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.Logf == nil {
		cfg.Logf = log.Printf
	}
	ctx, cancel := context.WithCancel(context.Background())
	q := &PrintQueue{cfg: cfg, printer: cfg.Printer, changed: newSignal(), cancel: cancel, done: make(chan struct{})}
	go q.run(ctx)
	return q
}

// Submit queues a ticket for printing and returns at once. When the queue
// is full the new job is dropped and the fault says so: the oldest tickets
// belong to the customers who have waited longest.
func (q *PrintQueue) Submit(t model.Ticket, pos model.Position) {
	q.enqueue(&printJob{ticket: t, pos: pos})
}

// ReprintLast queues the last ticket printed again, exactly as it was.
func (q *PrintQueue) ReprintLast() {
	q.mu.Lock()
	last := q.last
	q.mu.Unlock()
	if last != nil {
		q.enqueue(&printJob{ticket: last.ticket, pos: last.pos, slip: last.slip})
	}
}

func (q *PrintQueue) enqueue(j *printJob) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.jobs) >= q.cfg.Capacity {
		q.dropped++
		q.cfg.Logf("printing: queue full (%d jobs), ticket %s not printed", len(q.jobs), j.ticket.Number)
	} else {
		q.jobs = append(q.jobs, j)
	}
	q.changed.fire()
}

// SetPrinter switches to another printer (the setting changed); queued
// jobs go to the new one.
func (q *PrintQueue) SetPrinter(p Printer) {
	q.mu.Lock()
	q.printer = p
	q.changed.fire()
	q.mu.Unlock()
}

// Fault is "" while the printer works, else one sentence for the staff.
func (q *PrintQueue) Fault() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	f := q.fault
	if q.dropped > 0 {
		if f == "" {
			f = "打印队列已满"
		}
		f += fmt.Sprintf("；已有 %d 张票未能打印", q.dropped)
	}
	return f
}

// Pending is the number of jobs not yet printed.
func (q *PrintQueue) Pending() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs)
}

// Flush waits until every queued job is printed or ctx ends.
func (q *PrintQueue) Flush(ctx context.Context) error {
	for {
		q.mu.Lock()
		n, ch := len(q.jobs), q.changed.ch
		q.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("%d tickets still waiting for the printer: %w", n, ctx.Err())
		}
	}
}

// Close stops the worker; jobs not yet printed are logged and dropped.
func (q *PrintQueue) Close() error {
	q.cancel()
	<-q.done
	if n := q.Pending(); n > 0 {
		q.cfg.Logf("printing: stopped with %d tickets not printed", n)
	}
	return nil
}

func (q *PrintQueue) run(ctx context.Context) {
	defer close(q.done)
	failures := 0
	for {
		q.mu.Lock()
		ch := q.changed.ch
		var j *printJob
		if len(q.jobs) > 0 {
			j = q.jobs[0]
		}
		p := q.printer
		q.mu.Unlock()
		if j == nil {
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return
			}
		}
		err := q.attempt(ctx, p, j)
		if ctx.Err() != nil {
			return
		}
		q.mu.Lock()
		if err == nil {
			q.jobs = q.jobs[1:]
			q.last = j
			q.fault, q.dropped = "", 0
			if failures > 0 {
				q.cfg.Logf("printing: %s works again", p)
			}
			failures = 0
		} else {
			failures++
			q.fault = fmt.Sprintf("打印机故障，%d 张票等待打印，正在重试：%v", len(q.jobs), err)
			if failures == 1 || failures%10 == 0 {
				q.cfg.Logf("printing: ticket %s, attempt %d: %v", j.ticket.Number, failures, err)
			}
		}
		q.changed.fire()
		q.mu.Unlock()
		if err != nil && !sleepCtx(ctx, backoff(failures, q.cfg.MinBackoff, q.cfg.MaxBackoff)) {
			return
		}
	}
}

// attempt renders the job once (the header is read then) and sends it.
func (q *PrintQueue) attempt(ctx context.Context, p Printer, j *printJob) error {
	ctx, cancel := context.WithTimeout(ctx, q.cfg.Timeout)
	defer cancel()
	if j.slip == nil {
		h, err := q.cfg.Header(ctx)
		if err != nil {
			return fmt.Errorf("read ticket header: %w", err)
		}
		s := h.Slip(j.ticket, j.pos)
		j.slip = &s
	}
	if p == nil {
		return fmt.Errorf("no printer configured")
	}
	return p.Print(ctx, *j.slip)
}
