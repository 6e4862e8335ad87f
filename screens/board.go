package screens

import (
	"sort"
	"time"

	"jiaohao/model"
)

// The live state itself is followed and folded by the model
// (model.Follower, Snapshot.Apply); what is here only reads it for a view.

// findWindow returns the state of window n, if it exists.
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
		if t, ok := heldToday(s, w); ok {
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return calledAt(out[i]).After(calledAt(out[j])) })
	return out
}

// heldToday is the ticket window w holds on the snapshot's business day.
// One left held from an earlier day (served, never finished) blocks
// nothing (model.Desk) and is no call: shown, the morning's hall and
// window screen would send a customer to yesterday's number.
func heldToday(s model.Snapshot, w model.WindowState) (model.Ticket, bool) {
	if c := w.Current; c != nil && model.Held(*c) && (s.BusinessDate == "" || c.BusinessDate == s.BusinessDate) {
		return *c, true
	}
	return model.Ticket{}, false
}

func calledAt(t model.Ticket) time.Time {
	if t.CalledAt == nil {
		return time.Time{}
	}
	return *t.CalledAt
}
