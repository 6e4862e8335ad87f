package model_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"jiaohao/model"
)

// scripted is a Live whose snapshot is fixed and whose events the test
// sends by hand.
type scripted struct {
	snap   model.Snapshot
	events chan model.Event
}

func (s *scripted) Snapshot(context.Context) (model.Snapshot, error) { return s.snap, nil }
func (s *scripted) Now(context.Context) (time.Time, error)           { return testNow, nil }
func (s *scripted) Watch(context.Context, int64) (<-chan model.Event, error) {
	return s.events, nil
}
func (s *scripted) EventsSince(context.Context, int64, int) ([]model.Event, error) { return nil, nil }

// recording keeps what a follower handed on.
type recording struct {
	mu      sync.Mutex
	changes []model.Change
}

func (r *recording) handle(c model.Change) {
	r.mu.Lock()
	r.changes = append(r.changes, c)
	r.mu.Unlock()
}

func (r *recording) seen() (reloads int, kinds []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.changes {
		if c.Reloaded {
			reloads++
		}
		for _, e := range c.Events {
			kinds = append(kinds, e.Kind)
		}
	}
	return reloads, kinds
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// run runs f until the test ends, once it has its first snapshot.
func run(t *testing.T, f *model.Follower) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); f.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-f.Loaded():
	case <-time.After(10 * time.Second):
		t.Fatal("no first snapshot")
	}
}

// A call followed by a configuration change is handed on (and so shown and
// announced) before the follower reloads for the change.
func TestFollowerHandsOnEventsBeforeAReload(t *testing.T) {
	st := &scripted{snap: model.Snapshot{Version: 5}, events: make(chan model.Event, 4)}
	r := &recording{}
	run(t, model.NewFollower(st, r.handle))

	tk := model.Ticket{ID: 1, Number: "A001", Status: model.Called, Window: 1}
	st.events <- model.Event{Version: 6, Kind: model.EvCall, Ticket: &tk}
	st.events <- model.Event{Version: 7, Kind: model.EvConfig}
	waitFor(t, "the reload after the change", func() bool {
		reloads, kinds := r.seen()
		return reloads == 2 && len(kinds) == 1 && kinds[0] == model.EvCall
	})
}
