package reports

import (
	"context"
	"fmt"
	"sort"
	"strconv"

	"jiaohao/model"
)

// Satisfaction (客户评价, seed 002): the customers' ratings of the period's
// done tickets, per service they were finished under, per window that
// finished them and per clerk of the finish, beside how many each served,
// so the rating rate (rated / served) says how many customers rated at
// all. A group is the ticket's own: a rated ticket counts where it was
// served, so no group is rated more than it served.

// SatisfactionRow is one group's ratings.
type SatisfactionRow struct {
	// Key is the service code, the window number or the staff number ("":
	// nobody signed in); Name the service's, window's or clerk's name.
	Key, Name string
	Served    int // done tickets
	Rated     model.Satisfaction
}

// RatingRate is rated / served, 0 with nothing served.
func (r SatisfactionRow) RatingRate() float64 {
	if r.Served == 0 {
		return 0
	}
	return float64(r.Rated.Count()) / float64(r.Served)
}

// Satisfaction is the report's satisfaction part; Kept is false when the
// store keeps no ratings (then there is no section).
type Satisfaction struct {
	Kept                     bool
	Total                    SatisfactionRow
	Services, Windows, Staff []SatisfactionRow
}

func readRatings(ctx context.Context, src Source, p Period) (map[int64]model.Rating, error) {
	rf, ok := src.(model.RatingFacts)
	if !ok {
		return nil, nil
	}
	m, err := rf.RatingsOf(ctx, p.Start(), p.End())
	if err != nil {
		return nil, fmt.Errorf("read ratings: %w", err)
	}
	if m == nil {
		m = map[int64]model.Rating{}
	}
	return m, nil
}

// satTally counts served and rated by group as tickets stream past.
type satTally struct {
	total           SatisfactionRow
	services, staff map[int64]*SatisfactionRow
	windows         map[int]*SatisfactionRow
}

func newSatTally() satTally {
	return satTally{services: map[int64]*SatisfactionRow{}, windows: map[int]*SatisfactionRow{}, staff: map[int64]*SatisfactionRow{}}
}

func groupOf[K comparable](m map[K]*SatisfactionRow, k K) *SatisfactionRow {
	r, ok := m[k]
	if !ok {
		r = &SatisfactionRow{}
		m[k] = r
	}
	return r
}

// addRating counts a done ticket and its rating, if any.
func (t *tally) addRating(tk *model.TicketFact) {
	if t.in.ratings == nil {
		return
	}
	rows := []*SatisfactionRow{&t.sat.total, groupOf(t.sat.services, tk.ServiceID)}
	if tk.WindowNo != nil {
		rows = append(rows, groupOf(t.sat.windows, *tk.WindowNo))
	}
	if t.in.staff.finished != nil {
		rows = append(rows, groupOf(t.sat.staff, t.in.staff.finished[tk.ID]))
	}
	r, rated := t.in.ratings[tk.ID]
	for _, row := range rows {
		row.Served++
		if rated {
			row.Rated.Add(r.Score)
		}
	}
}

// satisfaction finishes the part: services in the report's order,
// windows by number, clerks by staff number with nobody last.
func (t *tally) satisfaction(r Report) Satisfaction {
	if t.in.ratings == nil {
		return Satisfaction{}
	}
	out := Satisfaction{Kept: true, Total: t.sat.total}
	for _, s := range r.Services {
		for id, row := range t.sat.services {
			if t.svc.code(id) == s.Code {
				row.Key, row.Name = s.Code, s.Name
				out.Services = append(out.Services, *row)
			}
		}
	}
	for n, row := range t.sat.windows {
		row.Key, row.Name = strconv.Itoa(n), t.win.row(n).Name
		out.Windows = append(out.Windows, *row)
	}
	sort.Slice(out.Windows, func(i, j int) bool {
		a, _ := strconv.Atoi(out.Windows[i].Key)
		b, _ := strconv.Atoi(out.Windows[j].Key)
		return a < b
	})
	for id, row := range t.sat.staff {
		s := t.in.staff.staff[id]
		row.Key, row.Name = s.Number, s.Name
		out.Staff = append(out.Staff, *row)
	}
	sort.Slice(out.Staff, func(i, j int) bool {
		if (out.Staff[i].Key == "") != (out.Staff[j].Key == "") {
			return out.Staff[j].Key == ""
		}
		return out.Staff[i].Key < out.Staff[j].Key
	})
	return out
}
