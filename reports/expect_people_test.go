package reports_test

import (
	"encoding/json"
	"testing"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/reports"
)

// The long way's per-person and per-window figures (see expect_test.go):
// whom each finished or passed ticket is credited to, from the event log
// alone, and how long each window spent paused or at lunch.

// expectStaff credits each done ticket to the clerk its finish event
// names and each passed one to the clerk of its last pass event (a pass,
// or a timeout to passed), reading the staff table for the numbers.
func expectStaff(t *testing.T, st *sqlstore.GormStore, all []rawTicket, events []rawEvent, from, to string) map[string]reports.StaffStats {
	var people []struct {
		ID     int64
		Number string
		Name   string
	}
	if err := st.DB().Table("staff").Find(&people).Error; err != nil {
		t.Fatal(err)
	}
	byID := map[int64]reports.StaffStats{}
	for _, p := range people {
		byID[p.ID] = reports.StaffStats{Number: p.Number, Name: p.Name}
	}
	finisher, passer := map[int64]int64{}, map[int64]int64{}
	credit := func(m map[int64]int64, e rawEvent) { // a pass by nobody clears an earlier clerk's
		if e.StaffID == nil {
			delete(m, *e.TicketID)
		} else {
			m[*e.TicketID] = *e.StaffID
		}
	}
	for _, e := range events { // in version order: the last pass wins
		if e.TicketID == nil {
			continue
		}
		if e.Kind == "finish" {
			credit(finisher, e)
		}
		if (e.Kind == "pass" || e.Kind == "timeout") && e.ToStatus == 3 {
			credit(passer, e)
		}
	}
	times := map[int64][]time.Duration{}
	out := map[string]reports.StaffStats{}
	for _, tk := range all {
		if d := tk.IssuedAt.In(st.Location()).Format("2006-01-02"); d < from || d > to {
			continue
		}
		if tk.Status == 5 { // no finisher: nobody's row, id 0, no number
			id := finisher[tk.ID]
			times[id] = append(times[id], tk.FinishedAt.Sub(*tk.ServeStartedAt))
		}
		if tk.Status == 3 {
			id := passer[tk.ID]
			s := byID[id]
			s.Passed++
			byID[id] = s
			out[s.Number] = s
		}
	}
	for id, ds := range times {
		s := byID[id]
		s.Served, s.AvgService = len(ds), mean(ds)
		out[s.Number] = s
	}
	return out
}

// timeByWindow follows each window's events (all of them start open in
// a fresh database) and adds up the time spent in status ("paused",
// "lunch") inside [from, end).
func timeByWindow(events []rawEvent, status string, from, end time.Time) map[int]time.Duration {
	inSince := map[int]time.Time{}
	out := map[int]time.Duration{}
	clip := func(a, b time.Time) time.Duration {
		if a.Before(from) {
			a = from
		}
		if b.After(end) {
			b = end
		}
		return max(b.Sub(a), 0)
	}
	for _, e := range events {
		if e.Kind != "window" {
			continue
		}
		var d struct {
			Window struct {
				Number int    `json:"number"`
				Status string `json:"status"`
			} `json:"window"`
		}
		if err := json.Unmarshal([]byte(e.Detail), &d); err != nil {
			continue
		}
		n := d.Window.Number
		if since, ok := inSince[n]; ok {
			out[n] += clip(since, e.At)
			delete(inSince, n)
		}
		if d.Window.Status == status {
			inSince[n] = e.At
		}
	}
	for n, since := range inSince {
		out[n] += clip(since, end)
	}
	return out
}
