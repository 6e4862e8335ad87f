package screens

import (
	"sort"
	"time"

	"jiaohao/model"
)

// recentShown bounds the recent-calls list the same way the store's
// snapshot does, so a screen's memory stays flat however long it runs.
const (
	recentShown = 10
	passedShown = 50
)

// board is the live queue as a terminal holds it: a snapshot with events
// applied on top. It is plain data, owned by one goroutine at a time; the
// follower hands copies to the UI.
type board struct {
	model.Snapshot
}

// apply folds one event into the board. It reports false when the board
// cannot follow by itself (a version gap, a configuration change, a resync)
// and the snapshot must be reloaded.
func (b *board) apply(ev model.Event) bool {
	switch {
	case ev.Kind == model.EvResync || ev.Kind == model.EvConfig:
		return false
	case ev.Version <= b.Version:
		return true // already included in the snapshot
	case ev.Version != b.Version+1:
		return false
	}
	b.Version = ev.Version
	if !ev.At.IsZero() {
		b.Now = ev.At
	}
	if ev.WindowInfo != nil {
		b.putWindow(*ev.WindowInfo)
	}
	if ev.Ticket != nil {
		b.putTicket(ev.Kind, ev.FromStatus, *ev.Ticket)
	}
	if ev.Device != nil {
		b.putDevice(*ev.Device)
	}
	return true
}

// putDevice keeps the list of failing devices, one entry per PC and device.
func (b *board) putDevice(d model.Device) {
	out := b.Faults[:0:0]
	for _, f := range b.Faults {
		if f.Terminal != d.Terminal || f.Kind != d.Kind {
			out = append(out, f)
		}
	}
	if d.Fault != "" {
		out = append(out, d)
	}
	b.Faults = out
}

func (b *board) putWindow(w model.Window) {
	for i := range b.Windows {
		if b.Windows[i].Number == w.Number {
			cur := b.Windows[i].Current
			if cur != nil && cur.ID != w.CurrentID {
				cur = nil
			}
			b.Windows[i] = model.WindowState{Window: w, Current: cur}
			return
		}
	}
	b.Windows = append(b.Windows, model.WindowState{Window: w})
}

func (b *board) putTicket(kind string, from model.Status, t model.Ticket) {
	// Waiting counts move with the ticket entering or leaving "waiting".
	if from == model.Waiting && t.Status != model.Waiting {
		b.addWaiting(t.Service, -1)
	}
	if t.Status == model.Waiting && (from != model.Waiting || kind == model.EvTake) {
		b.addWaiting(t.Service, 1)
	}
	if t.BusinessDate == b.BusinessDate {
		b.countDay(kind, from, t)
	}
	for i := range b.Windows {
		w := &b.Windows[i]
		switch {
		case model.Held(t) && w.Number == t.Window:
			tc := t
			w.Current, w.CurrentID = &tc, t.ID
		case w.CurrentID == t.ID:
			w.Current, w.CurrentID = nil, 0
		}
	}
	switch kind {
	case model.EvCall, model.EvRecall, model.EvUndoPass:
		b.RecentCalls = putFront(b.RecentCalls, t, recentShown)
	default:
		replace(b.RecentCalls, t)
	}
	b.Passed = remove(b.Passed, t.ID)
	if t.Status == model.Passed {
		b.Passed = putFront(b.Passed, t, passedShown)
	}
}

// countDay keeps the day's taken and passed counts (by issue service) in
// step with the events, as the store counts them in a snapshot.
func (b *board) countDay(kind string, from model.Status, t model.Ticket) {
	code := t.IssueService
	if code == "" {
		code = t.Service
	}
	for i := range b.Services {
		s := &b.Services[i]
		if s.Code != code {
			continue
		}
		if kind == model.EvTake {
			s.Taken++
		}
		if t.Status == model.Passed && from != model.Passed {
			s.Passed++
		}
		if from == model.Passed && t.Status != model.Passed {
			s.Passed = max(0, s.Passed-1)
		}
	}
}

func (b *board) addWaiting(code string, d int) {
	for i := range b.Services {
		if b.Services[i].Code == code {
			b.Services[i].Waiting = max(0, b.Services[i].Waiting+d)
		}
	}
}

// putFront puts t first in list (removing its old entry), keeping at most n.
func putFront(list []model.Ticket, t model.Ticket, n int) []model.Ticket {
	list = remove(list, t.ID)
	list = append(list, model.Ticket{})
	copy(list[1:], list)
	list[0] = t
	if len(list) > n {
		list = list[:n]
	}
	return list
}

func replace(list []model.Ticket, t model.Ticket) {
	for i := range list {
		if list[i].ID == t.ID {
			list[i] = t
		}
	}
}

func remove(list []model.Ticket, id int64) []model.Ticket {
	for i := range list {
		if list[i].ID == id {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// clone copies the board so the UI may keep it while the follower moves on.
func (b *board) clone() model.Snapshot {
	s := b.Snapshot
	s.Services = append([]model.ServiceCount(nil), b.Services...)
	s.Windows = append([]model.WindowState(nil), b.Windows...)
	s.RecentCalls = append([]model.Ticket(nil), b.RecentCalls...)
	s.Passed = append([]model.Ticket(nil), b.Passed...)
	return s
}

// window returns the state of window n, if it exists.
func findWindow(s model.Snapshot, n int) (model.WindowState, bool) {
	for _, w := range s.Windows {
		if w.Number == n {
			return w, true
		}
	}
	return model.WindowState{}, false
}

// inProgress lists the tickets now called or being served at a window,
// newest call first: the big rows of the hall screen.
func inProgress(s model.Snapshot) []model.Ticket {
	var out []model.Ticket
	for _, w := range s.Windows {
		if t := w.Current; t != nil && model.Held(*t) {
			out = append(out, *t)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return calledAt(out[i]).After(calledAt(out[j])) })
	return out
}

func calledAt(t model.Ticket) time.Time {
	if t.CalledAt == nil {
		return time.Time{}
	}
	return *t.CalledAt
}
