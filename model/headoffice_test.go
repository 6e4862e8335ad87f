package model

import (
	"testing"
	"time"
)

// A line needs attention for an alert, a failing device or a wait past
// LongWait; the totals add up and keep the longest wait; sorting puts
// the lines needing attention first, each part by code.
func TestOverviewAttentionTotalSort(t *testing.T) {
	lines := []BranchOverview{
		{Code: "C", Waiting: 1, Serving: 1, OpenWindows: 2, LongestWait: LongWait},
		{Code: "A", Waiting: 2, OpenWindows: 3, LongestWait: LongWait + time.Second},
		{Code: "D", Faults: 1},
		{Code: "B", Waiting: 4, Serving: 2, OpenWindows: 4, Alerts: 2, LongestWait: time.Minute},
	}
	for _, c := range []struct {
		code string
		want bool
	}{{"C", false}, {"A", true}, {"D", true}, {"B", true}} {
		for _, o := range lines {
			if o.Code == c.code && o.Attention() != c.want {
				t.Errorf("%s attention %v, want %v", c.code, o.Attention(), c.want)
			}
		}
	}
	tot := OverviewTotal(lines)
	if tot != (BranchOverview{Waiting: 7, Serving: 3, OpenWindows: 9, LongestWait: LongWait + time.Second, Alerts: 2, Faults: 1}) {
		t.Errorf("total %+v", tot)
	}
	SortOverview(lines)
	var got string
	for _, o := range lines {
		got += o.Code
	}
	if got != "ABDC" {
		t.Errorf("sorted %s, want ABDC", got)
	}
}
