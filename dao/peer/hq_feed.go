package peer

import (
	"context"
	"sync"
	"time"

	"jiaohao/model"
)

// hqFeed keeps every branch's line of head office's overview for all of
// head office's PCs at once, at a cost that does not grow with them: one
// subscription to each branch Server's own event tail (its hub, which its
// PCs already share), and after events there at most one read of the
// branch's line per Debounce, however busy the branch. Every Refresh the
// lines are read again without an event (an idle hall's longest wait
// grows) and the branches listed again (a branch added while serving
// appears). The feed runs while a head-office PC watches, and stops with
// the last one.
type hqFeed struct {
	b    *Branches
	opts HQOptions
	sem  chan struct{} // bounds the line reads at once: the pool serves the halls first

	mu      sync.Mutex
	gen     int                // the run; a stopped run's reads are dropped
	cancel  context.CancelFunc // nil while not running
	ready   chan struct{}      // closed once the branches listed first have a line
	lines   map[int64]hqLine
	watched map[int64]chan struct{} // each branch's kick: read the line again
	subs    map[*hqSub]struct{}
	closed  bool
}

// hqLine is a branch's line as read at at (this process's monotonic
// clock): the longest wait in it grows from there.
type hqLine struct {
	o  model.BranchOverview
	at time.Time
}

// aged is the line as of now: a customer still waiting has waited longer.
// A stale line is as last read: that customer may have been called since.
func (l hqLine) aged(now time.Time) model.BranchOverview {
	o := l.o
	if !o.Stale && o.Waiting > 0 && o.LongestWait > 0 && now.After(l.at) {
		o.LongestWait += now.Sub(l.at)
	}
	return o
}

// overviewer is a branch store that works out its own overview line
// (sqlstore's GormStore).
type overviewer interface {
	Overview(ctx context.Context) (model.BranchOverview, error)
}

// errOverviewLate answers for an overview not made in time: the host is
// up, its database slow; the PC retries, as for any outage.
var errOverviewLate = model.Errorf(model.EUnavailable, "总览暂时不可用 (the overview is not available now)")

// hqReads is how many branch lines are read at once.
const hqReads = 4

func newHQFeed(b *Branches, o HQOptions) *hqFeed {
	return &hqFeed{b: b, opts: o, sem: make(chan struct{}, hqReads), subs: map[*hqSub]struct{}{}}
}

// subscribe registers a head-office PC, starting the feed for the first,
// and returns every line known once the first lines are in (or after
// openTimeout: a branch whose database does not answer holds no one).
func (f *hqFeed) subscribe(ctx context.Context) (*hqSub, []model.BranchOverview, error) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil, nil, model.Errorf(model.EUnavailable, "服务器正在关闭 (server shutting down)")
	}
	if f.cancel == nil {
		f.startLocked()
	}
	sub := &hqSub{pending: map[int64]hqLine{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
	f.subs[sub] = struct{}{}
	ready := f.ready
	f.mu.Unlock()
	wait := time.NewTimer(openTimeout)
	defer wait.Stop()
	select {
	case <-ready:
	case <-wait.C:
	case <-ctx.Done():
		f.unsubscribe(sub)
		return nil, nil, errOverviewLate
	}
	return sub, f.current(), nil
}

// unsubscribe removes a PC; the last one stops the feed.
func (f *hqFeed) unsubscribe(sub *hqSub) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.subs[sub]; !ok {
		return
	}
	delete(f.subs, sub)
	if len(f.subs) == 0 && f.cancel != nil {
		f.stopLocked()
	}
}

// close stops the feed for good and ends every PC's stream.
func (f *hqFeed) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	for sub := range f.subs {
		close(sub.done)
		delete(f.subs, sub)
	}
	if f.cancel != nil {
		f.stopLocked()
	}
}

func (f *hqFeed) startLocked() {
	ctx, cancel := context.WithCancel(context.Background())
	f.gen++
	f.cancel, f.ready = cancel, make(chan struct{})
	f.lines, f.watched = map[int64]hqLine{}, map[int64]chan struct{}{}
	go f.run(ctx, f.gen, f.ready)
}

func (f *hqFeed) stopLocked() {
	f.cancel()
	f.cancel, f.lines, f.watched = nil, nil, nil
}

// current is every line known now, aged to now, trouble first.
func (f *hqFeed) current() []model.BranchOverview {
	now := time.Now()
	f.mu.Lock()
	out := make([]model.BranchOverview, 0, len(f.lines))
	for _, l := range f.lines {
		out = append(out, l.aged(now))
	}
	f.mu.Unlock()
	model.SortOverview(out)
	return out
}

// run lists the branches and watches each until ctx ends, listing again
// and reading every line again each Refresh.
func (f *hqFeed) run(ctx context.Context, gen int, ready chan struct{}) {
	t := time.NewTicker(f.opts.Refresh)
	defer t.Stop()
	first := true
	for {
		f.refresh(ctx, gen, ready, first)
		first = false
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// refresh starts watching the branches not watched yet and kicks the
// others; the first round closes ready once each branch had its first
// read (or failed it).
func (f *hqFeed) refresh(ctx context.Context, gen int, ready chan struct{}, first bool) {
	lctx, cancel := context.WithTimeout(ctx, f.b.home.opts.RequestTimeout)
	all, err := f.opts.Branches(lctx)
	cancel()
	if err != nil && ctx.Err() == nil {
		f.b.log.Warn("could not list the branches for head office", "err", model.ErrorCode(err))
	}
	var firsts sync.WaitGroup
	f.mu.Lock()
	if f.gen != gen {
		f.mu.Unlock()
		return
	}
	for _, br := range all {
		if kick, ok := f.watched[br.ID]; ok {
			select {
			case kick <- struct{}{}:
			default:
			}
			continue
		}
		kick := make(chan struct{}, 1)
		f.watched[br.ID] = kick
		firsts.Add(1)
		go f.watch(ctx, gen, br, kick, firsts.Done)
	}
	f.mu.Unlock()
	if first {
		go func() { firsts.Wait(); close(ready) }()
	}
}

// watch follows one branch's events and reads its line after them, at
// most once per Debounce, and when kicked. first runs after the first
// read, or the first failure.
func (f *hqFeed) watch(ctx context.Context, gen int, br model.BranchInfo, kick <-chan struct{}, first func()) {
	id := br.ID
	var once sync.Once
	done := func() { once.Do(first) }
	defer done()
	var last time.Time // of the last read: a subscription dropped mid-burst waits out Debounce
	for attempt := 0; ctx.Err() == nil; attempt++ {
		s, err := f.b.server(ctx, id)
		var sub *subscriber
		if err == nil {
			sub, _, err = s.hub.subscribe(ctx)
		}
		if err != nil {
			f.stale(ctx, gen, br)
			done()
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff(attempt)):
			}
			continue
		}
		attempt = 0
		missed := !last.IsZero() // events may have passed while not subscribed
		if !missed {
			f.read(ctx, gen, br, s)
			last = time.Now()
		}
		done()
		f.follow(ctx, gen, br, s, sub, kick, &last, missed)
		s.hub.unsubscribe(sub)
	}
}

// follow reads the line again after the branch's events, no sooner than
// Debounce after the last read, until the hub drops the subscription
// (a burst past its buffer); dirty: read it once without an event.
func (f *hqFeed) follow(ctx context.Context, gen int, br model.BranchInfo, s *Server, sub *subscriber, kick <-chan struct{}, last *time.Time, dirty bool) {
	var due <-chan time.Time
	mark := func() {
		if due == nil {
			due = time.After(max(0, f.opts.Debounce-time.Since(*last)))
		}
	}
	if dirty {
		mark()
	}
	for {
		select {
		case <-sub.ch:
			mark()
		case <-kick:
			mark()
		case <-due:
			due = nil
			f.read(ctx, gen, br, s)
			*last = time.Now()
		case <-sub.dropped:
			return
		case <-ctx.Done():
			return
		}
	}
}

// read works out the branch's line and hands it to every PC; a line that
// cannot be read is marked stale.
func (f *hqFeed) read(ctx context.Context, gen int, br model.BranchInfo, s *Server) {
	o, err := f.readLine(ctx, s)
	if err != nil {
		if ctx.Err() == nil {
			f.b.log.Warn("could not read a branch's overview", "branch", br.ID, "err", model.ErrorCode(err))
		}
		f.stale(ctx, gen, br)
		return
	}
	f.put(gen, br.ID, hqLine{o: o, at: time.Now()})
}

// stale marks the branch's line as not read lately, keeping its figures
// as last read (or its code and name alone, never read): head office must
// not take a branch whose database does not answer for a calm one.
func (f *hqFeed) stale(ctx context.Context, gen int, br model.BranchInfo) {
	if ctx.Err() != nil {
		return // stopping, not failing
	}
	f.mu.Lock()
	l, ok := f.lines[br.ID]
	f.mu.Unlock()
	if !ok {
		l = hqLine{o: model.BranchOverview{Code: br.Code, Name: br.Name}, at: time.Now()}
	}
	l.o.Stale = true
	f.put(gen, br.ID, l)
}

// put stores the branch's line and offers it to every PC if it changed.
func (f *hqFeed) put(gen int, id int64, l hqLine) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gen != gen || f.lines == nil {
		return
	}
	old, ok := f.lines[id]
	f.lines[id] = l
	if ok && old.o == l.o {
		return // nothing a PC would show differently
	}
	for sub := range f.subs {
		sub.offer(id, l)
	}
}

// readLine is one read of a branch's line, bounded like a request and
// waiting its turn among hqReads.
func (f *hqFeed) readLine(ctx context.Context, s *Server) (model.BranchOverview, error) {
	ov, ok := s.store.(overviewer)
	if !ok {
		return model.BranchOverview{}, model.Errorf(model.EUnavailable, "这个网点的数据源不提供总览 (this branch's store gives no overview)")
	}
	select {
	case f.sem <- struct{}{}:
	case <-ctx.Done():
		return model.BranchOverview{}, ctx.Err()
	}
	defer func() { <-f.sem }()
	if err := ctx.Err(); err != nil {
		return model.BranchOverview{}, err // stopped while waiting its turn
	}
	rctx, cancel := context.WithTimeout(ctx, s.opts.RequestTimeout)
	defer cancel()
	return ov.Overview(rctx)
}

// now is every branch's line for one request: the running feed's, else
// read from each branch once, a branch that cannot be read now stale.
func (f *hqFeed) now(ctx context.Context) ([]model.BranchOverview, error) {
	f.mu.Lock()
	running, ready := f.cancel != nil, f.ready
	f.mu.Unlock()
	if running {
		select {
		case <-ready:
			return f.current(), nil
		case <-ctx.Done():
		}
	}
	all, err := f.opts.Branches(ctx)
	if ctx.Err() != nil {
		return nil, errOverviewLate
	}
	if err != nil {
		return nil, err
	}
	lines := make([]model.BranchOverview, len(all))
	var wg sync.WaitGroup
	for i, br := range all {
		wg.Go(func() {
			s, err := f.b.server(ctx, br.ID)
			if err == nil {
				lines[i], err = f.readLine(ctx, s)
			}
			if err != nil {
				lines[i] = model.BranchOverview{Code: br.Code, Name: br.Name, Stale: true}
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, errOverviewLate // lines were given up on for want of time, not found unreadable
	}
	return lines, nil
}

// hqSub is one head-office PC's stream: the newest line of each branch
// changed since the last send waits in pending, older ones overwritten,
// so a slow PC never holds up the feed.
type hqSub struct {
	mu      sync.Mutex
	pending map[int64]hqLine
	wake    chan struct{}
	done    chan struct{} // closed when the server closes
}

func (s *hqSub) offer(id int64, l hqLine) {
	s.mu.Lock()
	s.pending[id] = l
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// take empties pending, aged to now.
func (s *hqSub) take() []model.BranchOverview {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]model.BranchOverview, 0, len(s.pending))
	for id, l := range s.pending {
		out = append(out, l.aged(now))
		delete(s.pending, id)
	}
	return out
}
