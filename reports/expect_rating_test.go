package reports_test

import (
	"strconv"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

// The satisfaction part recomputed the long way, like expect_test.go: the
// raw rating rows joined by hand to the raw tickets of both tables, each
// done ticket of the period counted as served for its service (the one
// it was finished under), its window and the clerk its last finish event
// names, and its rating, if any, for the same groups.

type satCount struct {
	served int
	levels [5]int // by score; [0] unused
}

type expectedSat struct {
	total                    satCount
	services, windows, staff map[string]satCount
}

func expectSatisfaction(t *testing.T, st *sqlstore.GormStore, from, to string) expectedSat {
	t.Helper()
	var all []rawTicket
	for _, table := range []string{"ticket", "ticket_history"} {
		var rows []rawTicket
		if err := st.DB().Table(table).Find(&rows).Error; err != nil {
			t.Fatal(err)
		}
		all = append(all, rows...)
	}
	var ratings []struct {
		TicketID int64
		Score    int
	}
	if err := st.DB().Table("rating").Find(&ratings).Error; err != nil {
		t.Fatal(err)
	}
	score := map[int64]int{}
	for _, r := range ratings {
		if _, twice := score[r.TicketID]; twice {
			t.Fatalf("ticket %d rated twice in the table", r.TicketID)
		}
		score[r.TicketID] = r.Score
	}
	var services []struct {
		ID   int64
		Code string
	}
	if err := st.DB().Table("service").Find(&services).Error; err != nil {
		t.Fatal(err)
	}
	code := map[int64]string{}
	for _, s := range services {
		code[s.ID] = s.Code
	}
	var people []struct {
		ID     int64
		Number string
	}
	if err := st.DB().Table("staff").Find(&people).Error; err != nil {
		t.Fatal(err)
	}
	number := map[int64]string{}
	for _, p := range people {
		number[p.ID] = p.Number
	}
	var events []rawEvent
	if err := st.DB().Table("queue_event").Order("version").Find(&events).Error; err != nil {
		t.Fatal(err)
	}
	finisher := map[int64]string{}
	for _, e := range events {
		if e.Kind == "finish" && e.TicketID != nil {
			finisher[*e.TicketID] = ""
			if e.StaffID != nil {
				finisher[*e.TicketID] = number[*e.StaffID]
			}
		}
	}
	out := expectedSat{services: map[string]satCount{}, windows: map[string]satCount{}, staff: map[string]satCount{}}
	count := func(c satCount, id int64) satCount {
		c.served++
		if s, ok := score[id]; ok {
			c.levels[s]++
		}
		return c
	}
	for _, tk := range all {
		if d := tk.IssuedAt.In(st.Location()).Format("2006-01-02"); d < from || d > to {
			continue
		}
		if tk.Status != 5 {
			if _, ok := score[tk.ID]; ok {
				t.Fatalf("ticket %s is rated but not done (status %d)", tk.Number, tk.Status)
			}
			continue
		}
		out.total = count(out.total, tk.ID)
		out.services[code[tk.ServiceID]] = count(out.services[code[tk.ServiceID]], tk.ID)
		if tk.WindowNo != nil {
			w := strconv.Itoa(*tk.WindowNo)
			out.windows[w] = count(out.windows[w], tk.ID)
		}
		out.staff[finisher[tk.ID]] = count(out.staff[finisher[tk.ID]], tk.ID)
	}
	return out
}

func compareSat(t *testing.T, what string, got reports.SatisfactionRow, want satCount) {
	t.Helper()
	if got.Served != want.served {
		t.Errorf("%s: served %d, raw rows %d", what, got.Served, want.served)
	}
	rated := 0
	for s := model.ScoreUnsatisfied; s <= model.ScoreVerySatisfied; s++ {
		rated += want.levels[s]
		if got.Rated.Of(s) != want.levels[s] {
			t.Errorf("%s: %d ratings of %d, raw rows %d", what, got.Rated.Of(s), s, want.levels[s])
		}
		if want.levels[s] > 0 && got.Rated.Share(s) != float64(want.levels[s])/float64(got.Rated.Count()) {
			t.Errorf("%s: share of %d %v", what, s, got.Rated.Share(s))
		}
	}
	if want.served > 0 && got.RatingRate() != float64(rated)/float64(want.served) {
		t.Errorf("%s: rating rate %v, raw %d/%d", what, got.RatingRate(), rated, want.served)
	}
}

// TestReportSatisfactionEqualsRawCounts: on a seeded day with ratings,
// every satisfaction figure of the report (per service, window and clerk,
// and the total) equals the counts recomputed from the raw rows.
func TestReportSatisfactionEqualsRawCounts(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		sum := seed(t, st, seededDay, 260)
		r := generate(t, st, seededDay, seededDay)
		want := expectSatisfaction(t, st, seededDay, seededDay)
		s := r.Satisfaction
		if !s.Kept || s.Total.Rated.Count() != sum.Ratings || sum.Ratings == 0 {
			t.Fatalf("kept %v, %d rated in the report, %d by the generator", s.Kept, s.Total.Rated.Count(), sum.Ratings)
		}
		compareSat(t, "total", s.Total, want.total)
		for name, c := range map[string]struct {
			rows []reports.SatisfactionRow
			want map[string]satCount
		}{"service": {s.Services, want.services}, "window": {s.Windows, want.windows}, "staff": {s.Staff, want.staff}} {
			if len(c.rows) != len(c.want) {
				t.Errorf("%s rows: %d, raw groups %d", name, len(c.rows), len(c.want))
			}
			for _, row := range c.rows {
				compareSat(t, name+" "+row.Key, row, c.want[row.Key])
			}
		}
		csv, err := reports.CSV(r)
		if err != nil {
			t.Fatal(err)
		}
		w := want.total
		line := "satisfaction,total,,," + strconv.Itoa(w.served) + "," + strconv.Itoa(w.levels[1]+w.levels[2]+w.levels[3]+w.levels[4])
		if !strings.Contains(string(csv), line) || !strings.Contains(string(csv), "satisfaction,staff,9001,") {
			t.Errorf("the CSV has no satisfaction section starting %q:\n%s", line, csv)
		}
	})
}
