package screens

import (
	"testing"

	"jiaohao/model"
	"jiaohao/model/modeltest"
)

// The hall's big rows are the tickets the followed state puts at windows.
func TestInProgressFollowsTheState(t *testing.T) {
	s := &model.Snapshot{Version: 10,
		Services: []model.ServiceCount{{Code: "A", Waiting: 1, Enabled: true}},
		Windows:  []model.WindowState{{Window: model.Window{Number: 1, Status: model.WindowOpen, Services: []string{"A"}}}}}
	sim := &modeltest.Simulator{Version: 10, Seq: 100, At: testNow, Windows: 1}
	evs := sim.Next() // take, call, start, finish
	s.Apply(evs[0])
	s.Apply(evs[1])
	if got := inProgress(*s); len(got) != 1 || got[0].Number != evs[1].Ticket.Number {
		t.Fatalf("in progress %v", got)
	}
	s.Apply(evs[2])
	s.Apply(evs[3])
	if len(inProgress(*s)) != 0 {
		t.Fatalf("after finish: in progress %v", inProgress(*s))
	}
}
