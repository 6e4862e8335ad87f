package screens

import (
	"context"
	"sync"
	"testing"
	"time"

	"jiaohao/model"
)

// scripted is a Store whose snapshot is fixed and whose events the test
// sends by hand.
type scripted struct {
	model.Store
	snap   model.Snapshot
	events chan model.Event
}

func (s *scripted) Snapshot(context.Context) (model.Snapshot, error) { return s.snap, nil }
func (s *scripted) Now(context.Context) (time.Time, error)           { return testNow, nil }
func (s *scripted) Watch(ctx context.Context, _ int64) (<-chan model.Event, error) {
	return s.events, nil
}

// recordingView keeps what the follower showed.
type recordingView struct {
	mu      sync.Mutex
	updates []update
}

func (v *recordingView) show(u update) { v.mu.Lock(); v.updates = append(v.updates, u); v.mu.Unlock() }
func (v *recordingView) link(bool)     {}

func (v *recordingView) seen() (reloads int, kinds []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, u := range v.updates {
		if u.reloaded {
			reloads++
		}
		for _, e := range u.events {
			kinds = append(kinds, e.Kind)
		}
	}
	return reloads, kinds
}

// A call followed by a configuration change is shown (and so announced)
// before the follower reloads for the change.
func TestFollowerShowsEventsBeforeAReload(t *testing.T) {
	st := &scripted{snap: model.Snapshot{Version: 5}, events: make(chan model.Event, 4)}
	v := &recordingView{}
	f := newFollower(st, v, &serverClock{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); f.run(ctx) }()
	defer func() { cancel(); <-done }()
	<-f.loaded

	tk := model.Ticket{ID: 1, Number: "A001", Status: model.Called, Window: 1}
	st.events <- model.Event{Version: 6, Kind: model.EvCall, Ticket: &tk}
	st.events <- model.Event{Version: 7, Kind: model.EvConfig}
	waitFor(t, "the reload after the change", func() bool {
		reloads, kinds := v.seen()
		return reloads == 2 && len(kinds) == 1 && kinds[0] == model.EvCall
	})
}
