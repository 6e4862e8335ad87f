package model

import (
	"testing"
	"time"
)

// A branch's overview line adds up its snapshot; with nobody waiting
// there is no longest wait, and a clock behind the ticket gives none.
func TestOverviewLine(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	snap := Snapshot{Branch: "北京分行", Now: now,
		Services: []ServiceCount{{Code: "A", Waiting: 3}, {Code: "B", Waiting: 2}},
		Windows: []WindowState{
			{Window: Window{Number: 1, Status: WindowOpen}, Current: &Ticket{Status: Serving}},
			{Window: Window{Number: 2, Status: WindowOpen}, Current: &Ticket{Status: Called}},
			{Window: Window{Number: 3, Status: WindowPaused}, Current: &Ticket{Status: Done}},
			{Window: Window{Number: 4, Status: WindowClosed}},
		},
		Alerts: []Alert{{}}, Faults: []Device{{}, {}}}
	got := Overview("BJ001", snap, now.Add(-7*time.Minute))
	want := BranchOverview{Code: "BJ001", Name: "北京分行", Waiting: 5, Serving: 2, OpenWindows: 2, LongestWait: 7 * time.Minute, Alerts: 1, Faults: 2}
	if got != want {
		t.Fatalf("line %+v, want %+v", got, want)
	}
	if o := Overview("BJ001", snap, time.Time{}); o.LongestWait != 0 {
		t.Fatalf("nobody waiting, longest %s", o.LongestWait)
	}
	if o := Overview("BJ001", snap, now.Add(time.Second)); o.LongestWait != 0 {
		t.Fatalf("a ticket after the clock, longest %s", o.LongestWait)
	}
}
