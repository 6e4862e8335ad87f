package reports

import (
	"context"
	"fmt"
	"sort"
	"time"

	"jiaohao/model"
)

// Per-staff figures (个人中心, seed 002): who served whom, from the events
// that name the clerk signed in at the acting window. A done ticket
// counts for the clerk of its finish, with its service time (start to
// finish, as per window); a ticket passed now counts for the clerk of its
// last pass. What no clerk finished or passed (nobody signed in at the
// window) is a row of its own, number and name empty, so the table adds
// up to the report's totals.

// StaffStats is one clerk over the period.
type StaffStats struct {
	Number     string
	Name       string
	Served     int
	AvgService time.Duration
	Passed     int
}

// staffFacts is what the per-staff table reads; nil maps: no table.
type staffFacts struct {
	staff            map[int64]model.Staff
	finished, passed map[int64]int64
}

func readStaffFacts(ctx context.Context, src Source, p Period) (staffFacts, error) {
	sf, ok := src.(model.StaffFacts)
	if !ok {
		return staffFacts{}, nil
	}
	list, err := sf.StaffList(ctx)
	if err != nil {
		return staffFacts{}, fmt.Errorf("read staff: %w", err)
	}
	out := staffFacts{staff: map[int64]model.Staff{}}
	for _, s := range list {
		out.staff[s.ID] = s
	}
	if out.finished, out.passed, err = sf.StaffActs(ctx, p.Start(), p.End()); err != nil {
		return staffFacts{}, err
	}
	return out, nil
}

// staffTally collects the per-staff figures ticket by ticket.
type staffTally struct {
	times  map[int64][]time.Duration
	passed map[int64]int
}

func (t *tally) addStaff(tk *model.TicketFact, serviceTime time.Duration, done bool) {
	f := t.in.staff
	if f.finished == nil {
		return
	}
	if done { // absent: nobody, id 0
		id := f.finished[tk.ID]
		t.st.times[id] = append(t.st.times[id], serviceTime)
	}
	if model.Status(tk.Status) == model.Passed {
		t.st.passed[f.passed[tk.ID]]++
	}
}

// staffList is the clerks with any figure, by staff number, then
// nobody's row.
func (t *tally) staffList() []StaffStats {
	ids := map[int64]bool{}
	for id := range t.st.times {
		ids[id] = true
	}
	for id := range t.st.passed {
		ids[id] = true
	}
	out := make([]StaffStats, 0, len(ids))
	for id := range ids {
		s := t.in.staff.staff[id]
		out = append(out, StaffStats{Number: s.Number, Name: s.Name, Served: len(t.st.times[id]),
			AvgService: Average(t.st.times[id]), Passed: t.st.passed[id]})
	}
	sort.Slice(out, func(i, j int) bool { // nobody's row last
		if (out[i].Number == "") != (out[j].Number == "") {
			return out[j].Number == ""
		}
		return out[i].Number < out[j].Number
	})
	return out
}
