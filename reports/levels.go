package reports

import (
	"slices"
	"sort"
	"time"
)

// Tickets by customer level (客户管理, seed 002): how many tickets each
// level of the register took, how they ended and how long they waited,
// so the manager sees whether the 贵宾 were served first. A ticket
// carries the level it was taken at, so a customer moved to another
// level later does not move their old tickets.

// LevelStats is one level over the period; Level "" is the tickets taken
// without identification.
type LevelStats struct {
	Level    string
	Statuses Totals
	Called   int
	AvgWait  time.Duration // issue to first call, of the called
}

type levelRow struct {
	LevelStats
	waits []time.Duration
}

// levelTally collects the rows by level.
type levelTally map[string]*levelRow

func (l levelTally) row(level string) *levelRow {
	r, ok := l[level]
	if !ok {
		r = &levelRow{LevelStats: LevelStats{Level: level}}
		l[level] = r
	}
	return r
}

// list is the levels by name, then the unidentified row; nothing when no
// ticket was taken for a customer.
func (l levelTally) list() []LevelStats {
	if len(l) == 0 || len(l) == 1 && l[""] != nil {
		return nil
	}
	out := make([]LevelStats, 0, len(l))
	for _, r := range l {
		slices.Sort(r.waits)
		r.Called, r.AvgWait = len(r.waits), Average(r.waits)
		out = append(out, r.LevelStats)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Level == "") != (out[j].Level == "") {
			return out[j].Level == ""
		}
		return out[i].Level < out[j].Level
	})
	return out
}

// levels is the PDF's table by customer level.
func (d *pdfDoc) levels(r Report) {
	if len(r.Levels) == 0 {
		return
	}
	d.heading(d.lb.Levels)
	rows := make([][]string, 0, len(r.Levels))
	for _, l := range r.Levels {
		name := l.Level
		if name == "" {
			name = d.lb.NoLevel
		}
		rows = append(rows, []string{name, itoa(l.Statuses.Taken), itoa(l.Statuses.Done), itoa(l.Statuses.Passed), Clock(l.AvgWait)})
	}
	d.table([]string{d.lb.Level, d.lb.Taken, d.lb.Done, d.lb.Passed, d.lb.AvgWait}, []float64{2, 1, 1, 1, 1.3}, rows)
}
