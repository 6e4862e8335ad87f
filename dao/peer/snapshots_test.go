package peer

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"jiaohao/model"
)

// Many PCs asking at once share reads, and one that asks while a read runs
// gets the next one, which starts after it asked: it sees its own change.
func TestSnapshotsCoalesceAfterTheAsk(t *testing.T) {
	var reads, version atomic.Int64
	gate := make(chan struct{})
	g := newSnapshots(context.Background(), 5*time.Second, func(context.Context) (model.Snapshot, error) {
		reads.Add(1)
		v := version.Load() // the state when the read starts
		<-gate
		return model.Snapshot{Version: v}, nil
	})
	first := make(chan model.Snapshot, 1)
	go func() { s, _ := g.get(context.Background()); first <- s }()
	for reads.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	version.Store(7) // a change commits while the first read runs
	var wg sync.WaitGroup
	got := make([]int64, 100)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := g.get(context.Background())
			if err != nil {
				t.Error(err)
			}
			got[i] = s.Version
		}()
	}
	time.Sleep(50 * time.Millisecond) // let them queue behind the first read
	close(gate)
	wg.Wait()
	if s := <-first; s.Version != 0 {
		t.Fatalf("first read saw version %d", s.Version)
	}
	for i, v := range got {
		if v != 7 {
			t.Fatalf("caller %d got version %d, a read that began before it asked", i, v)
		}
	}
	if n := reads.Load(); n != 2 {
		t.Fatalf("%d reads for 101 callers, want 2", n)
	}
	// A caller that gives up gets unavailable; the read goes on for others.
	blocked := make(chan struct{})
	g2 := newSnapshots(context.Background(), 5*time.Second, func(context.Context) (model.Snapshot, error) {
		<-blocked
		return model.Snapshot{Version: 1}, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := g2.get(ctx); model.ErrorCode(err) != model.EUnavailable {
		t.Fatalf("a caller past its deadline: %v, want unavailable", err)
	}
	close(blocked)
}
