package model

import "time"

// BranchOverview is one branch's line on head office's overview of many
// branches: what a regional manager scans for a hall in trouble.
type BranchOverview struct {
	Code        string        `json:"code"`
	Name        string        `json:"name"`
	Waiting     int           `json:"waiting"`
	Serving     int           `json:"serving"` // windows with a customer called or being served
	OpenWindows int           `json:"open_windows"`
	LongestWait time.Duration `json:"longest_wait_ns"` // of the customers waiting now
	Alerts      int           `json:"alerts"`          // those the branch's manager still sees
	Faults      int           `json:"faults"`          // devices failing now
	// Stale: the line could not be read lately (the branch's database did
	// not answer); its figures are as last read, or none if never.
	Stale bool `json:"stale,omitempty"`
}

// Overview is a branch's line from its snapshot, the same figures its own
// screens show, and the issue time of its longest-waiting ticket (zero:
// nobody waits).
func Overview(code string, snap Snapshot, oldestWaiting time.Time) BranchOverview {
	o := BranchOverview{Code: code, Name: snap.Branch, Alerts: len(snap.Alerts), Faults: len(snap.Faults)}
	for _, s := range snap.Services {
		o.Waiting += s.Waiting
	}
	for _, w := range snap.Windows {
		if w.Status == WindowOpen {
			o.OpenWindows++
		}
		if w.Current != nil && (w.Current.Status == Called || w.Current.Status == Serving) {
			o.Serving++
		}
	}
	if !oldestWaiting.IsZero() && snap.Now.After(oldestWaiting) {
		o.LongestWait = snap.Now.Sub(oldestWaiting)
	}
	return o
}
