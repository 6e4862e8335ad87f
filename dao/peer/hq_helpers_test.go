package peer

import (
	"context"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// overviewCounter counts the overview lines head office's feed reads of a
// branch.
type overviewCounter struct {
	*sqlstore.GormStore
	reads *atomic.Int64
	fail  *atomic.Bool // the branch's line cannot be read now
}

func (c overviewCounter) Overview(ctx context.Context) (model.BranchOverview, error) {
	c.reads.Add(1)
	if c.fail.Load() {
		return model.BranchOverview{}, model.Errorf(model.EUnavailable, "数据库无响应 (the database does not answer)")
	}
	return c.GormStore.Overview(ctx)
}

// hqEnv serves two branches of one database from one process, as serve
// --branch all does, with head office's routes: B001 (home) and BJ001.
type hqEnv struct {
	*env
	b2  *sqlstore.GormStore
	srv *Branches

	mu    sync.Mutex
	reads map[int64]*atomic.Int64 // overview reads by branch id
	fails map[int64]*atomic.Bool  // branches whose line cannot be read, by id

	hq, man1, man2, kiosk1, kiosk2 string
}

func newHQEnv(t *testing.T, dsn string, opts Options, o HQOptions) *hqEnv {
	t.Helper()
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.AddBranch(ctx, model.BranchInfo{Code: "BJ001", Name: "北京分行", TimeZone: "Asia/Shanghai"}, ""); err != nil {
		t.Fatal(err)
	}
	b2, err := st.Branch(ctx, "BJ001")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b2.Close() })
	e := &hqEnv{b2: b2, reads: map[int64]*atomic.Int64{}, fails: map[int64]*atomic.Bool{}}
	var opened []*sqlstore.GormStore
	home := NewServer(overviewCounter{st, e.counter(st.BranchID()), e.failing(st.BranchID())}, st, opts)
	e.srv = NewBranches(home, st.BranchID(), st, func(ctx context.Context, id int64) (*Server, error) {
		b, err := st.BranchByID(ctx, id)
		if err != nil {
			return nil, err
		}
		e.mu.Lock()
		opened = append(opened, b)
		e.mu.Unlock()
		return NewServer(overviewCounter{b, e.counter(id), e.failing(id)}, b, opts), nil
	})
	if o.Terminals == nil {
		o.Terminals = st.HeadOffice()
	}
	if o.Branches == nil {
		o.Branches = st.Branches
	}
	e.srv.ServeHQ(o)
	ts := httptest.NewServer(e.srv.Handler())
	t.Cleanup(func() {
		e.srv.Close()
		ts.Close()
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, b := range opened {
			b.Close()
		}
	})
	e.env = &env{store: st, srv: home, ts: ts}
	e.hq = addToken(t, st.HeadOffice(), model.RoleHQ, 0)
	e.man1, e.kiosk1 = addToken(t, st, model.RoleManager, 0), addToken(t, st, model.RoleKiosk, 0)
	e.man2, e.kiosk2 = addToken(t, b2, model.RoleManager, 0), addToken(t, b2, model.RoleKiosk, 0)
	return e
}

// counter is the read count of a branch, made on first use.
func (e *hqEnv) counter(id int64) *atomic.Int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.reads[id] == nil {
		e.reads[id] = &atomic.Int64{}
	}
	return e.reads[id]
}

// failing is the switch that makes a branch's line unreadable, made on
// first use.
func (e *hqEnv) failing(id int64) *atomic.Bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.fails[id] == nil {
		e.fails[id] = &atomic.Bool{}
	}
	return e.fails[id]
}

// hqView folds one head-office PC's updates into the lines it would show.
type hqView struct {
	mu      sync.Mutex
	lines   map[string]model.BranchOverview
	full    int  // full updates seen
	down    bool // the last update said the link is lost
	closed  bool // the channel closed
	changed chan struct{}
}

func watchHQ(ctx context.Context, t *testing.T, url, token string) *hqView {
	t.Helper()
	c, err := NewClient(url, token, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ch, err := c.WatchOverview(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v := &hqView{lines: map[string]model.BranchOverview{}, changed: make(chan struct{}, 1)}
	go func() {
		for u := range ch {
			v.apply(u)
		}
		v.mu.Lock()
		v.closed = true
		v.mu.Unlock()
		v.poke()
	}()
	return v
}

func (v *hqView) apply(u model.OverviewUpdate) {
	v.mu.Lock()
	switch {
	case u.Down:
		v.down = true
	case u.Full:
		v.lines, v.down = map[string]model.BranchOverview{}, false
		v.full++
	}
	for _, o := range u.Lines {
		v.lines[o.Code] = o
	}
	v.mu.Unlock()
	v.poke()
}

func (v *hqView) poke() {
	select {
	case v.changed <- struct{}{}:
	default:
	}
}

// wait waits until cond holds of the view; the deadline only turns a
// hang into a failure.
func (v *hqView) wait(t *testing.T, what string, cond func(v *hqView) bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		v.mu.Lock()
		ok := cond(v)
		v.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-v.changed:
		case <-deadline:
			v.mu.Lock()
			defer v.mu.Unlock()
			t.Fatalf("head office never saw %s: lines %+v, down %v", what, v.lines, v.down)
		}
	}
}
