package model_test

import (
	"testing"
	"time"

	"jiaohao/model"
	"jiaohao/model/modeltest"
)

var testNow = time.Date(2026, 3, 2, 10, 30, 0, 0, time.FixedZone("CST", 8*3600))

func TestApplyFollowsEventsAndAsksForReloads(t *testing.T) {
	s := &model.Snapshot{Version: 10, BusinessDate: "2026-03-02", // the simulator's day
		Services: []model.ServiceCount{{Code: "A", Waiting: 1, Enabled: true}},
		Windows:  []model.WindowState{{Window: model.Window{Number: 1, Status: model.WindowOpen, Services: []string{"A"}}}}}
	sim := &modeltest.Simulator{Version: 10, Seq: 100, At: testNow, Windows: 1}
	evs := sim.Next() // take, call, start, finish
	if !s.Apply(evs[0]) || s.Services[0].Waiting != 2 {
		t.Fatalf("after take: %+v", s.Services)
	}
	if !s.Apply(evs[1]) || s.Services[0].Waiting != 1 || s.Windows[0].Current == nil || s.RecentCalls[0].ID != 101 {
		t.Fatalf("after call: waiting %d, window %+v, recent %v", s.Services[0].Waiting, s.Windows[0], s.RecentCalls)
	}
	if !s.Apply(evs[1]) {
		t.Fatal("an event already applied must be ignored, not cause a reload")
	}
	s.Apply(evs[2])
	s.Apply(evs[3])
	if s.Windows[0].Current != nil || s.RecentCalls[0].Status != model.Done {
		t.Fatalf("after finish: window %+v, recent %v", s.Windows[0], s.RecentCalls)
	}
	gap := sim.Next()[1]
	if s.Apply(gap) {
		t.Fatal("a version gap must ask for a reload")
	}
	if s.Apply(model.Event{Version: s.Version + 1, Kind: model.EvConfig}) {
		t.Fatal("a configuration change must ask for a reload")
	}
	if s.Apply(model.Event{Kind: model.EvResync}) {
		t.Fatal("a resync must ask for a reload")
	}
}

func TestApplyKeepsPassedAndRecentBounded(t *testing.T) {
	s := &model.Snapshot{Services: []model.ServiceCount{{Code: "A"}, {Code: "B"}}}
	sim := &modeltest.Simulator{Seq: 0, At: testNow, Windows: 4}
	for range 500 {
		for _, ev := range sim.Next() {
			if !s.Apply(ev) {
				t.Fatalf("event %d refused", ev.Version)
			}
			if ev.Kind == model.EvPass && (len(s.Passed) == 0 || s.Passed[0].ID != ev.TicketID) {
				t.Fatalf("passed ticket %d not first in %v", ev.TicketID, s.Passed)
			}
		}
	}
	if len(s.RecentCalls) != model.RecentCallsKept || len(s.Passed) != 0 {
		t.Fatalf("recent %d (want %d), passed %d (all called back, want 0)", len(s.RecentCalls), model.RecentCallsKept, len(s.Passed))
	}
}

// Yesterday's numbers are not in today's waiting counts (the store counts
// the numbers issued today), so the manager cancelling one left over, or
// the sweep putting one back in the recall pool, moves no count of today:
// the hall and the dashboard would show fewer (or more) waiting than there
// are until the next reload.
func TestApplyLeavesTodaysWaitingForAnotherDaysTicket(t *testing.T) {
	s := &model.Snapshot{Version: 10, BusinessDate: "2026-03-02",
		Services: []model.ServiceCount{{Code: "A", Waiting: 2, Taken: 2, Enabled: true}}}
	old := model.Ticket{ID: 7, Service: "A", IssueService: "A", BusinessDate: "2026-03-01", Status: model.Cancelled}
	if !s.Apply(model.Event{Version: 11, At: testNow, Kind: model.EvCancel, FromStatus: model.Waiting, Ticket: &old}) || s.Services[0].Waiting != 2 {
		t.Fatalf("after cancelling yesterday's waiting number today's waiting is %d, want 2", s.Services[0].Waiting)
	}
	old.Status = model.Waiting
	if !s.Apply(model.Event{Version: 12, At: testNow, Kind: model.EvTimeout, FromStatus: model.Called, Ticket: &old}) || s.Services[0].Waiting != 2 {
		t.Fatalf("after yesterday's number went back to the pool today's waiting is %d, want 2", s.Services[0].Waiting)
	}
}
