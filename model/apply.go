package model

import "slices"

// The lists a live state keeps. The store's snapshot and Apply bound them
// the same way, so a state followed for a whole day matches a fresh
// snapshot and a screen's memory stays flat however long it runs.
const (
	RecentCallsKept = 10 // Snapshot.RecentCalls
	PassedKept      = 50 // Snapshot.Passed
)

// Apply folds one committed event into the snapshot. It reports false when
// the snapshot cannot follow by itself (a version gap, a configuration
// change, a resync) and must be loaded again; it leaves s as it was then.
// An event the snapshot already includes changes nothing.
func (s *Snapshot) Apply(ev Event) bool {
	switch {
	case ev.Kind == EvResync || ev.Kind == EvConfig:
		return false
	case ev.Version <= s.Version:
		return true // already included in the snapshot
	case ev.Version != s.Version+1:
		return false
	}
	s.Version = ev.Version
	if !ev.At.IsZero() {
		s.Now = ev.At
	}
	if ev.WindowInfo != nil {
		s.PutWindow(*ev.WindowInfo)
	}
	if ev.Ticket != nil {
		s.putTicket(ev.Kind, ev.FromStatus, *ev.Ticket)
	}
	if ev.Device != nil {
		s.putDevice(*ev.Device)
	}
	if ev.Alert != nil {
		s.putAlert(*ev.Alert)
	}
	if ev.Kind == EvRate {
		s.Rated.Add(RatedScore(ev))
	}
	return true
}

// PutWindow puts a window's committed state into the snapshot, keeping the
// ticket it holds while its current id still names it.
func (s *Snapshot) PutWindow(w Window) {
	for i := range s.Windows {
		if s.Windows[i].Number == w.Number {
			cur := s.Windows[i].Current
			if cur != nil && cur.ID != w.CurrentID {
				cur = nil
			}
			s.Windows[i] = WindowState{Window: w, Current: cur}
			return
		}
	}
	s.Windows = append(s.Windows, WindowState{Window: w})
}

// CallKinds are the events that call a customer to a window: what the
// recent calls list, the hall announces and the LED bars show.
var CallKinds = []string{EvCall, EvRecall, EvUndoPass}

// IsCall says whether ev calls a customer to a window.
func IsCall(ev Event) bool { return ev.Ticket != nil && slices.Contains(CallKinds, ev.Kind) }

// PutCurrent puts a ticket's committed state at the windows: the window
// that holds it (called or serving) shows it, a window that held it before
// lets it go.
func (s *Snapshot) PutCurrent(t Ticket) {
	held := Held(t)
	for i := range s.Windows {
		w := &s.Windows[i]
		switch {
		case held && w.Number == t.Window:
			tc := t
			w.Current, w.CurrentID = &tc, t.ID
		case w.CurrentID == t.ID:
			w.Current, w.CurrentID = nil, 0
		}
	}
}

// putDevice keeps the list of failing devices, one entry per PC and device.
func (s *Snapshot) putDevice(d Device) {
	out := s.Faults[:0:0]
	for _, f := range s.Faults {
		if f.Terminal != d.Terminal || f.Kind != d.Kind {
			out = append(out, f)
		}
	}
	if d.Fault != "" {
		out = append(out, d)
	}
	s.Faults = out
}

func (s *Snapshot) putTicket(kind string, from Status, t Ticket) {
	// Waiting counts move with the ticket entering or leaving "waiting",
	// for a ticket of the day only: the store counts the numbers issued
	// today, and the manager cancelling one left over from yesterday
	// must not take one from today's.
	if t.BusinessDate == s.BusinessDate {
		if from == Waiting && t.Status != Waiting {
			s.addWaiting(t.Service, -1)
		}
		if t.Status == Waiting && (from != Waiting || kind == EvTake) {
			s.addWaiting(t.Service, 1)
		}
		s.countDay(kind, from, t)
	}
	s.PutCurrent(t)
	if slices.Contains(CallKinds, kind) {
		s.RecentCalls = putFront(s.RecentCalls, t, RecentCallsKept)
	} else {
		replace(s.RecentCalls, t)
	}
	s.Passed = remove(s.Passed, t.ID)
	if t.Status == Passed {
		s.Passed = putFront(s.Passed, t, PassedKept)
	}
}

// countDay keeps the day's taken and passed counts (by issue service) in
// step with the events, as the store counts them in a snapshot.
func (s *Snapshot) countDay(kind string, from Status, t Ticket) {
	code := t.IssueService
	if code == "" {
		code = t.Service
	}
	for i := range s.Services {
		c := &s.Services[i]
		if c.Code != code {
			continue
		}
		if kind == EvTake {
			c.Taken++
		}
		if t.Status == Passed && from != Passed {
			c.Passed++
		}
		if from == Passed && t.Status != Passed {
			c.Passed = max(0, c.Passed-1)
		}
	}
}

func (s *Snapshot) addWaiting(code string, d int) {
	for i := range s.Services {
		if s.Services[i].Code == code {
			s.Services[i].Waiting = max(0, s.Services[i].Waiting+d)
		}
	}
}

// putFront puts t first in list (removing its old entry), keeping at most n.
func putFront(list []Ticket, t Ticket, n int) []Ticket {
	list = remove(list, t.ID)
	list = append(list, Ticket{})
	copy(list[1:], list)
	list[0] = t
	if len(list) > n {
		list = list[:n]
	}
	return list
}

func replace(list []Ticket, t Ticket) {
	for i := range list {
		if list[i].ID == t.ID {
			list[i] = t
		}
	}
}

func remove(list []Ticket, id int64) []Ticket {
	for i := range list {
		if list[i].ID == id {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// Clone copies the lists Apply changes in place, so a copy handed on stays
// as it was while the original moves on.
func (s Snapshot) Clone() Snapshot {
	s.Services = append([]ServiceCount(nil), s.Services...)
	s.Windows = append([]WindowState(nil), s.Windows...)
	s.RecentCalls = append([]Ticket(nil), s.RecentCalls...)
	s.Passed = append([]Ticket(nil), s.Passed...)
	s.Alerts = append([]Alert(nil), s.Alerts...)
	return s
}
