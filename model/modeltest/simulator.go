// Package modeltest makes live-state events for tests and benchmarks of
// what follows the queue (the model's reducer, the screens), without a
// store. Only tests import it.
package modeltest

import (
	"fmt"
	"time"

	"jiaohao/model"
)

// Simulator makes the events of a busy hall: each ticket is taken, called
// to one of the windows, served and finished; every tenth is passed
// instead, and its window calls it back later. Version is the last version
// made; the next event has Version+1.
type Simulator struct {
	Version int64
	Seq     int
	At      time.Time
	Windows int
}

func (s *Simulator) event(kind string, from model.Status, t model.Ticket) model.Event {
	s.Version++
	s.At = s.At.Add(250 * time.Millisecond)
	tc := t
	return model.Event{Version: s.Version, At: s.At, Kind: kind, TicketID: t.ID, Window: t.Window, FromStatus: from, ToStatus: t.Status, Ticket: &tc}
}

// Next returns the events of one more customer.
func (s *Simulator) Next() []model.Event {
	s.Seq++
	svc := "A"
	if s.Seq%3 == 0 {
		svc = "B"
	}
	now := s.At
	t := model.Ticket{ID: int64(s.Seq), Number: fmt.Sprintf("%s%03d", svc, s.Seq%1000), Service: svc, IssueService: svc,
		BusinessDate: "2026-03-02", SeqNo: s.Seq, Priority: 5, Status: model.Waiting, Lane: model.LaneNormal, IssuedAt: now}
	evs := []model.Event{s.event(model.EvTake, 0, t)}
	t.Status, t.Window, t.CallCount, t.CalledAt = model.Called, s.Seq%s.Windows+1, 1, &now
	evs = append(evs, s.event(model.EvCall, model.Waiting, t))
	if s.Seq%10 == 0 {
		t.Status = model.Passed
		evs = append(evs, s.event(model.EvPass, model.Called, t))
		t.Status, t.CallCount = model.Called, 2
		evs = append(evs, s.event(model.EvUndoPass, model.Passed, t))
	}
	t.Status = model.Serving
	evs = append(evs, s.event(model.EvStart, model.Called, t))
	t.Status = model.Done
	return append(evs, s.event(model.EvFinish, model.Serving, t))
}
