package peer

import (
	"context"
	"sync"
	"time"

	"jiaohao/model"
)

// snapshots coalesces the snapshot reads of many PCs: a whole hall of
// screens reconnecting after the host restarts asks for the same state at
// once, and one read can answer all of them. A caller only shares a read
// that starts after it asked, so a PC that has just acted still sees its
// own change: while one read runs, everyone who asks waits for the next,
// which starts as soon as it ends. The database serves one snapshot at a
// time however many PCs ask.
type snapshots struct {
	read    func(context.Context) (model.Snapshot, error)
	timeout time.Duration
	ctx     context.Context

	mu      sync.Mutex
	running bool
	next    *snapshotRead // the read the next callers share; nil until one asks
}

type snapshotRead struct {
	done chan struct{}
	snap model.Snapshot
	err  error
}

func newSnapshots(ctx context.Context, timeout time.Duration, read func(context.Context) (model.Snapshot, error)) *snapshots {
	return &snapshots{read: read, timeout: timeout, ctx: ctx}
}

// get returns a snapshot read after the call began, or unavailable when
// ctx ends first.
func (g *snapshots) get(ctx context.Context) (model.Snapshot, error) {
	g.mu.Lock()
	r := g.next
	if r == nil {
		r = &snapshotRead{done: make(chan struct{})}
		g.next = r
	}
	if !g.running {
		g.startLocked()
	}
	g.mu.Unlock()
	select {
	case <-r.done:
		return r.snap, r.err
	case <-ctx.Done():
		return model.Snapshot{}, model.Errorf(model.EUnavailable, "数据库响应超时，请稍后再试 (the database did not answer in time)")
	}
}

// startLocked runs the waiting read; g.mu is held.
func (g *snapshots) startLocked() {
	r := g.next
	g.next, g.running = nil, true
	go func() {
		// Its own deadline: one caller giving up must not fail the others.
		ctx, cancel := context.WithTimeout(g.ctx, g.timeout)
		r.snap, r.err = g.read(ctx)
		cancel()
		close(r.done)
		g.mu.Lock()
		g.running = false
		if g.next != nil {
			g.startLocked()
		}
		g.mu.Unlock()
	}()
}
