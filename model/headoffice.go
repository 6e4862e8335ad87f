package model

import (
	"context"
	"slices"
	"strings"
	"time"
)

// LongWait is how long a customer may wait before head office's overview
// marks the branch's line for attention. Branches have no wait target of
// their own among their settings, so it is one figure for all: twenty
// minutes, past which a hall is usually already complaining.
const LongWait = 20 * time.Minute

// Attention reports whether the line needs someone at head office to look:
// an alert the branch's manager still sees, a device failing, a customer
// waiting longer than LongWait, or a line that cannot be read now (a
// branch gone quiet is not a calm one).
func (o BranchOverview) Attention() bool {
	return o.Stale || o.Alerts > 0 || o.Faults > 0 || o.LongestWait > LongWait
}

// OverviewTotal adds up the lines of many branches: their sums, and the
// longest of their longest waits. Code and name stay empty.
func OverviewTotal(lines []BranchOverview) BranchOverview {
	var t BranchOverview
	for _, o := range lines {
		t.Waiting += o.Waiting
		t.Serving += o.Serving
		t.OpenWindows += o.OpenWindows
		t.Alerts += o.Alerts
		t.Faults += o.Faults
		t.LongestWait = max(t.LongestWait, o.LongestWait)
	}
	return t
}

// SortOverview puts the lines that need attention first, then the rest,
// each part by branch code: trouble is at the top, and a branch keeps its
// place among its peers while nothing happens to it.
func SortOverview(lines []BranchOverview) {
	slices.SortStableFunc(lines, func(a, b BranchOverview) int {
		if a.Attention() != b.Attention() {
			if a.Attention() {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Code, b.Code)
	})
}

// OverviewUpdate is one step of head office's live overview. Full: Lines
// is every branch, replacing what was shown; otherwise Lines are the
// branches that changed. Down: the link to the host is lost, the lines on
// screen are as last seen, and the next update after it is Full.
type OverviewUpdate struct {
	Full  bool
	Down  bool
	Lines []BranchOverview
}

// HeadOffice is what head office's screen needs: the overview of every
// branch, live. The channel closes when ctx ends.
type HeadOffice interface {
	WatchOverview(ctx context.Context) (<-chan OverviewUpdate, error)
}
