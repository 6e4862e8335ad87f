package reports

import (
	"fmt"
	"sort"
	"time"

	"jiaohao/model"
)

// serviceTable collects per-service rows keyed by service id, in the
// branch's display order; ids no longer configured still get a row so no
// ticket drops out of the report.
type serviceTable struct {
	order []int64
	rows  map[int64]*ServiceStats
	known map[int64]model.Service
}

func newServiceTable(services []model.Service) *serviceTable {
	t := &serviceTable{rows: map[int64]*ServiceStats{}, known: map[int64]model.Service{}}
	sorted := append([]model.Service(nil), services...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].SortOrder < sorted[j].SortOrder })
	for _, s := range sorted {
		t.known[s.ID] = s
		if s.Enabled {
			t.row(s.ID)
		}
	}
	return t
}

func (t *serviceTable) code(id int64) string {
	if s, ok := t.known[id]; ok {
		return s.Code
	}
	return fmt.Sprintf("#%d", id)
}

func (t *serviceTable) row(id int64) *ServiceStats {
	if r, ok := t.rows[id]; ok {
		return r
	}
	r := &ServiceStats{Code: t.code(id), Name: t.known[id].Name}
	t.rows[id] = r
	t.order = append(t.order, id)
	return r
}

func (t *serviceTable) list() []ServiceStats {
	out := make([]ServiceStats, 0, len(t.order))
	for _, id := range t.order {
		out = append(out, *t.rows[id])
	}
	return out
}

// windowTable collects per-window rows by window number.
type windowTable struct {
	rows  map[int]*WindowStats
	names map[int]string
}

func newWindowTable(windows []model.Window) *windowTable {
	t := &windowTable{rows: map[int]*WindowStats{}, names: map[int]string{}}
	for _, w := range windows {
		t.names[w.Number] = w.Name
		t.row(w.Number)
	}
	return t
}

func (t *windowTable) row(n int) *WindowStats {
	if r, ok := t.rows[n]; ok {
		return r
	}
	r := &WindowStats{Number: n, Name: t.names[n]}
	t.rows[n] = r
	return r
}

func (t *windowTable) list() []WindowStats {
	out := make([]WindowStats, 0, len(t.rows))
	for _, r := range t.rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out
}

// pausedTime is, per window, how long it was paused within the period's
// business hours and before the report was made. A window's status comes
// from its window events: the last one before the period, then each change
// in version order. Time while closed or at lunch is not pause.
func pausedTime(in facts) map[int]time.Duration { return timeIn(in, model.WindowPaused) }

// lunchTime is pausedTime for the lunch break (午休), counted apart: a
// planned break is not a window left idle.
func lunchTime(in facts) map[int]time.Duration { return timeIn(in, model.WindowLunch) }

// timeIn is, per window, how long it had status within the period's
// business hours and before the report was made.
func timeIn(in facts, status model.WindowStatus) map[int]time.Duration {
	limit := in.period.End()
	if in.now.Before(limit) {
		limit = in.now
	}
	start := in.period.Start()
	state := map[int]model.WindowStatus{}
	since := map[int]time.Time{}
	for w, s := range in.initial {
		state[w], since[w] = s, start
	}
	out := map[int]time.Duration{}
	add := func(w int, until time.Time) {
		if state[w] == status {
			out[w] += in.businessOverlap(since[w], until, limit)
		}
	}
	for _, c := range in.changes {
		if _, ok := since[c.Window]; !ok {
			since[c.Window] = start
		}
		add(c.Window, c.At)
		state[c.Window], since[c.Window] = c.Status, c.At
	}
	for w := range state {
		add(w, limit)
	}
	for w, d := range out {
		if d == 0 {
			delete(out, w)
		}
	}
	return out
}

// businessOverlap is the part of [a, b) inside business hours on the
// period's days and before limit.
func (in facts) businessOverlap(a, b, limit time.Time) time.Duration {
	if b.After(limit) {
		b = limit
	}
	var total time.Duration
	for i := 0; i < in.period.Days(); i++ {
		day := in.period.dayStart(i)
		lo, hi := atClock(day, in.open), atClock(day, in.close)
		if a.After(lo) {
			lo = a
		}
		if b.Before(hi) {
			hi = b
		}
		if hi.After(lo) {
			total += hi.Sub(lo)
		}
	}
	return total
}

// atClock is the instant a clock time (since midnight) falls on a local
// day; by wall clock, so business hours stay 09:00–17:00 across DST.
func atClock(day time.Time, since time.Duration) time.Time {
	y, m, d := day.Date()
	h, mi := int(since/time.Hour), int(since%time.Hour/time.Minute)
	return time.Date(y, m, d, h, mi, 0, 0, day.Location())
}

// sourceOrder puts the kiosk and the window first; any other source (the
// manager's console, a demo) follows by name.
var sourceOrder = map[string]int{model.SourceKiosk: 1, model.SourceWindow: 2}

func sourceList(counts map[string]int) []SourceCount {
	out := make([]SourceCount, 0, len(counts))
	for s, n := range counts {
		out = append(out, SourceCount{Source: s, Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := sourceOrder[out[i].Source], sourceOrder[out[j].Source]
		if a == 0 {
			a = len(sourceOrder) + 1
		}
		if b == 0 {
			b = len(sourceOrder) + 1
		}
		if a != b {
			return a < b
		}
		return out[i].Source < out[j].Source
	})
	return out
}
