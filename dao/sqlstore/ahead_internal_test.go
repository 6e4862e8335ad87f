package sqlstore

import (
	"slices"
	"testing"

	"jiaohao/model"
)

// The services' heads, each in serving order, merge into the one serving
// order model.ServedBefore gives, cut at the limit.
func TestMergeAheadFollowsServingOrder(t *testing.T) {
	tickets := []model.Ticket{
		{ID: 1, Lane: model.LaneNormal, Priority: 5, SortKey: 10}, // service 1
		{ID: 2, Lane: model.LaneNormal, Priority: 1, SortKey: 20}, // service 2: VIP, first of the normal lane
		{ID: 3, Lane: model.LaneRecall, Priority: 5, SortKey: 30}, // service 1: the recall pool before all
		{ID: 4, Lane: model.LaneNormal, Priority: 5, SortKey: 15}, // service 2
		{ID: 5, Lane: model.LaneNormal, Priority: 5, SortKey: 15}, // service 1: same place, later id
	}
	service := map[int64]int64{1: 1, 2: 2, 3: 1, 4: 2, 5: 1}
	heads := make([][]aheadRow, 2)
	sorted := slices.Clone(tickets)
	slices.SortFunc(sorted, func(a, b model.Ticket) int {
		if model.ServedBefore(a, b) {
			return -1
		}
		return 1
	})
	for _, tk := range sorted {
		s := service[tk.ID]
		heads[s-1] = append(heads[s-1], aheadRow{service: s, key: model.ServingKey(tk)})
	}
	want := make([]int64, len(sorted))
	for i, tk := range sorted {
		want[i] = service[tk.ID]
	}
	if got := mergeAhead(heads, 10); !slices.Equal(got, want) {
		t.Fatalf("merged %v, want %v (order %v)", got, want, sorted)
	}
	if got := mergeAhead(heads, 3); !slices.Equal(got, want[:3]) {
		t.Fatalf("merged to 3: %v, want %v", got, want[:3])
	}
	if got := mergeAhead([][]aheadRow{nil, nil}, 3); len(got) != 0 {
		t.Fatalf("merged empty heads: %v", got)
	}
}
