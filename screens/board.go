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
