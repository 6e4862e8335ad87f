package screens

import (
	"testing"

	"jiaohao/model"
)

func TestBoardFollowsEventsAndAsksForReloads(t *testing.T) {
	b := &board{Snapshot: model.Snapshot{Version: 10,
		Services: []model.ServiceCount{{Code: "A", Waiting: 1, Enabled: true}},
		Windows:  []model.WindowState{{Window: model.Window{Number: 1, Status: model.WindowOpen, Services: []string{"A"}}}}}}
	sim := &simulator{version: 10, seq: 100, at: testNow, windows: 1}
	evs := sim.next() // take, call, start, finish
	if !b.apply(evs[0]) || b.Services[0].Waiting != 2 {
		t.Fatalf("after take: %+v", b.Services)
	}
	if !b.apply(evs[1]) || b.Services[0].Waiting != 1 || b.Windows[0].Current == nil || b.RecentCalls[0].ID != 101 {
		t.Fatalf("after call: waiting %d, window %+v, recent %v", b.Services[0].Waiting, b.Windows[0], b.RecentCalls)
	}
	if got := inProgress(b.Snapshot); len(got) != 1 || got[0].Number != evs[1].Ticket.Number {
		t.Fatalf("in progress %v", got)
	}
	if !b.apply(evs[1]) {
		t.Fatal("an event already applied must be ignored, not cause a reload")
	}
	b.apply(evs[2])
	b.apply(evs[3])
	if b.Windows[0].Current != nil || len(inProgress(b.Snapshot)) != 0 || b.RecentCalls[0].Status != model.Done {
		t.Fatalf("after finish: window %+v, recent %v", b.Windows[0], b.RecentCalls)
	}
	gap := sim.next()[1]
	if b.apply(gap) {
		t.Fatal("a version gap must ask for a reload")
	}
	if b.apply(model.Event{Version: b.Version + 1, Kind: model.EvConfig}) {
		t.Fatal("a configuration change must ask for a reload")
	}
	if b.apply(model.Event{Kind: model.EvResync}) {
		t.Fatal("a resync must ask for a reload")
	}
}

func TestBoardPassedAndRecentStayBounded(t *testing.T) {
	b := &board{Snapshot: model.Snapshot{Services: []model.ServiceCount{{Code: "A"}, {Code: "B"}}}}
	sim := &simulator{seq: 0, at: testNow, windows: 4}
	for range 500 {
		for _, ev := range sim.next() {
			if !b.apply(ev) {
				t.Fatalf("event %d refused", ev.Version)
			}
			if ev.Kind == model.EvPass && (len(b.Passed) == 0 || b.Passed[0].ID != ev.TicketID) {
				t.Fatalf("passed ticket %d not first in %v", ev.TicketID, b.Passed)
			}
		}
	}
	if len(b.RecentCalls) != recentShown || len(b.Passed) != 0 {
		t.Fatalf("recent %d (want %d), passed %d (all called back, want 0)", len(b.RecentCalls), recentShown, len(b.Passed))
	}
}
