package reports_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"jiaohao/app/demodata"
	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/reports"
)

// The table by customer level equals a count over the raw rows: each
// ticket's level read from its take event (the ticket as taken, not the
// column the report reads), its outcome from the ticket row, its first
// call from the call events. On the seeded day with a register, the 贵宾
// and 私行 waited less than the customers taken without identification.
func TestLevelTableEqualsTheTicketLog(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		if _, err := demodata.Day(context.Background(), st, demodata.DayConfig{Date: seededDay, Tickets: 260, Customers: 200}); err != nil {
			t.Fatal(err)
		}
		r := generate(t, st, seededDay, seededDay)
		want := expectLevels(t, st, seededDay)
		if len(r.Levels) != len(want) || len(want) < 3 {
			t.Fatalf("levels %+v, want %d rows: %+v", r.Levels, len(want), want)
		}
		taken := 0
		for _, got := range r.Levels {
			w := want[got.Level]
			if got.Statuses.Taken != w.Statuses.Taken || got.Statuses.Done != w.Statuses.Done || got.Statuses.Passed != w.Statuses.Passed ||
				got.Called != w.Called || got.AvgWait != w.AvgWait {
				t.Errorf("level %q: report %+v, raw rows %+v", got.Level, got, w)
			}
			taken += got.Statuses.Taken
		}
		if taken != r.Totals.Taken {
			t.Errorf("the levels add up to %d of %d tickets", taken, r.Totals.Taken)
		}
		csv, err := reports.CSV(r)
		if err != nil {
			t.Fatal(err)
		}
		g := want["贵宾"]
		row := fmt.Sprintf("level,贵宾,%d,%d,%d,%d,", g.Statuses.Taken, g.Statuses.Done, g.Statuses.Passed, g.Called)
		if !strings.Contains(string(csv), "level,level,taken,done,passed,called,avg_wait_s\n") || !strings.Contains(string(csv), row) {
			t.Errorf("the CSV has no level section with %q", row)
		}
		for _, lang := range []reports.Lang{reports.LangZH, reports.LangEN} {
			if _, err := reports.PDF(r, lang); err != nil {
				t.Errorf("PDF %v: %v", lang, err)
			}
		}
		if last := r.Levels[len(r.Levels)-1]; last.Level != "" || want["贵宾"].AvgWait >= last.AvgWait {
			t.Errorf("贵宾 waited %v on average, the unidentified %v (last row %q)", want["贵宾"].AvgWait, last.AvgWait, last.Level)
		}
	})
}

func expectLevels(t *testing.T, st *sqlstore.GormStore, day string) map[string]reports.LevelStats {
	t.Helper()
	var events []rawEvent
	if err := st.DB().Table("queue_event").Order("version").Find(&events).Error; err != nil {
		t.Fatal(err)
	}
	level, firstCall := map[int64]string{}, map[int64]time.Time{}
	for _, e := range events {
		if e.TicketID == nil {
			continue
		}
		switch e.Kind {
		case "take":
			var d struct {
				Ticket struct {
					Level string `json:"level"`
				} `json:"ticket"`
			}
			if err := json.Unmarshal([]byte(e.Detail), &d); err != nil {
				t.Fatalf("take event %d: %v", e.Version, err)
			}
			level[*e.TicketID] = d.Ticket.Level
		case "call":
			if f, ok := firstCall[*e.TicketID]; !ok || e.At.Before(f) {
				firstCall[*e.TicketID] = e.At
			}
		}
	}
	var all []rawTicket
	for _, table := range []string{"ticket", "ticket_history"} {
		var rows []rawTicket
		if err := st.DB().Table(table).Find(&rows).Error; err != nil {
			t.Fatal(err)
		}
		all = append(all, rows...)
	}
	out := map[string]reports.LevelStats{}
	waits := map[string][]time.Duration{}
	for _, tk := range all {
		if tk.IssuedAt.In(st.Location()).Format("2006-01-02") != day {
			continue
		}
		l := level[tk.ID]
		x := out[l]
		x.Level = l
		tallyStatus(&x.Statuses, tk.Status)
		out[l] = x
		if fc, ok := firstCall[tk.ID]; ok {
			waits[l] = append(waits[l], fc.Sub(tk.IssuedAt))
		}
	}
	for l, ws := range waits {
		sort.Slice(ws, func(i, j int) bool { return ws[i] < ws[j] })
		x := out[l]
		x.Called, x.AvgWait = len(ws), mean(ws)
		out[l] = x
	}
	return out
}
