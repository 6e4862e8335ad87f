package reports_test

import (
	"sort"
	"testing"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/reports"
)

// This file recomputes a report's figures the long way, from every raw row
// of both ticket tables and the whole event log, with no code shared with
// the package: the day is selected by formatting each issue time as a local
// date, first calls come from scanning every call event, percentiles from
// the textbook nearest-rank rule.

type rawTicket struct {
	ID             int64
	IssueServiceID int64
	ServiceID      int64
	Number         string
	Source         string
	Status         int
	WindowNo       *int
	IssuedAt       time.Time
	ServeStartedAt *time.Time
	FinishedAt     *time.Time
	EstimateS      *int
}

type rawEvent struct {
	Version  int64
	Kind     string
	TicketID *int64
	WindowNo *int
	At       time.Time
	Detail   string
	ToStatus int
	StaffID  *int64
}

type expected struct {
	totals   reports.Totals
	services map[string]reports.ServiceStats
	windows  map[int]reports.WindowStats
	hours    [24]int
	sources  map[string]int
	hist     []int
	stuck    []string
	estimate reports.EstimateAccuracy
	staff    map[string]reports.StaffStats
}

func expect(t *testing.T, st *sqlstore.GormStore, from, to string, now time.Time) expected {
	t.Helper()
	loc := st.Location()
	var all []rawTicket
	for _, table := range []string{"ticket", "ticket_history"} {
		var rows []rawTicket
		if err := st.DB().Table(table).Find(&rows).Error; err != nil {
			t.Fatal(err)
		}
		all = append(all, rows...)
	}
	var events []rawEvent
	if err := st.DB().Table("queue_event").Order("version").Find(&events).Error; err != nil {
		t.Fatal(err)
	}
	codes := map[int64]string{}
	services, _ := st.Services(t.Context())
	for _, s := range services {
		codes[s.ID] = s.Code
	}
	firstCall := map[int64]time.Time{}
	for _, e := range events {
		if e.Kind == "call" && e.TicketID != nil {
			if f, ok := firstCall[*e.TicketID]; !ok || e.At.Before(f) {
				firstCall[*e.TicketID] = e.At
			}
		}
	}
	x := expected{sources: map[string]int{}, services: map[string]reports.ServiceStats{}, windows: map[int]reports.WindowStats{}, hist: make([]int, 8)}
	waits := map[string][]time.Duration{}
	svcTimes := map[string][]time.Duration{}
	winTimes := map[int][]time.Duration{}
	var estErrors []time.Duration
	for _, tk := range all {
		local := tk.IssuedAt.In(loc)
		if d := local.Format("2006-01-02"); d < from || d > to {
			continue
		}
		code := codes[tk.IssueServiceID]
		s := x.services[code]
		s.Count++
		tallyStatus(&x.totals, tk.Status)
		tallyStatus(&s.Statuses, tk.Status) // by the issue service, like Count
		x.services[code] = s
		if tk.Status == 2 || tk.Status == 4 {
			x.stuck = append(x.stuck, tk.Number)
		}
		x.hours[local.Hour()]++
		x.sources[tk.Source]++
		if fc, ok := firstCall[tk.ID]; ok {
			w := fc.Sub(tk.IssuedAt)
			waits[code] = append(waits[code], w)
			x.hist[histIndex(w)]++
			if tk.EstimateS != nil {
				e := w - time.Duration(*tk.EstimateS)*time.Second
				if e < 0 {
					e = -e
				}
				estErrors = append(estErrors, e)
			}
		}
		if tk.Status == 5 {
			d := tk.FinishedAt.Sub(*tk.ServeStartedAt)
			svcTimes[codes[tk.ServiceID]] = append(svcTimes[codes[tk.ServiceID]], d)
			winTimes[*tk.WindowNo] = append(winTimes[*tk.WindowNo], d)
		}
	}
	for code, ws := range waits {
		sort.Slice(ws, func(i, j int) bool { return ws[i] < ws[j] })
		s := x.services[code]
		s.Called, s.AvgWait = len(ws), mean(ws)
		s.MedianWait, s.P90Wait = ws[(5*len(ws)+9)/10-1], ws[(9*len(ws)+9)/10-1]
		x.services[code] = s
	}
	// The estimate's accuracy: the textbook median of the absolute errors
	// and the count within three minutes, over called tickets with one.
	sort.Slice(estErrors, func(i, j int) bool { return estErrors[i] < estErrors[j] })
	x.estimate.Compared = len(estErrors)
	if n := len(estErrors); n > 0 {
		x.estimate.MedianError = estErrors[(n+1)/2-1]
		for _, e := range estErrors {
			if e <= 3*time.Minute {
				x.estimate.Within++
			}
		}
		x.estimate.WithinShare = float64(x.estimate.Within) / float64(n)
	}
	for code, ds := range svcTimes {
		s := x.services[code]
		s.Served, s.AvgService = len(ds), mean(ds)
		x.services[code] = s
	}
	for n, ds := range winTimes {
		x.windows[n] = reports.WindowStats{Number: n, Served: len(ds), AvgService: mean(ds)}
	}
	dayFrom, _ := time.ParseInLocation("2006-01-02", from, loc)
	dayTo, _ := time.ParseInLocation("2006-01-02", to, loc)
	end := dayTo.AddDate(0, 0, 1)
	if now.Before(end) {
		end = now
	}
	for n, p := range timeByWindow(events, "paused", dayFrom, end) {
		w := x.windows[n]
		w.Number, w.Paused = n, p
		x.windows[n] = w
	}
	for n, p := range timeByWindow(events, "lunch", dayFrom, end) {
		w := x.windows[n]
		w.Number, w.Lunch = n, p
		x.windows[n] = w
	}
	// Requeued tickets come from the requeue events, not the ticket's
	// mark the report reads: each ticket once, by its issue service.
	requeued := map[int64]bool{}
	for _, e := range events {
		if e.Kind == "requeue" && e.TicketID != nil {
			requeued[*e.TicketID] = true
		}
	}
	for _, tk := range all {
		if d := tk.IssuedAt.In(loc).Format("2006-01-02"); d >= from && d <= to && requeued[tk.ID] {
			s := x.services[codes[tk.IssueServiceID]]
			s.Requeued++
			x.services[codes[tk.IssueServiceID]] = s
		}
	}
	x.staff = expectStaff(t, st, all, events, from, to)
	return x
}

func histIndex(w time.Duration) int {
	edges := []int{5, 10, 15, 20, 30, 45, 60}
	i := 0
	for i < len(edges) && w >= time.Duration(edges[i])*time.Minute {
		i++
	}
	return i
}

func mean(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return (sum / time.Duration(len(ds))).Truncate(time.Millisecond)
}

// compare checks every figure of r against x.
func compare(t *testing.T, r reports.Report, x expected) {
	t.Helper()
	if r.Totals != x.totals {
		t.Errorf("totals %+v, counted %+v", r.Totals, x.totals)
	}
	if r.ArrivalsByHour != x.hours {
		t.Errorf("arrivals by hour %v, counted %v", r.ArrivalsByHour, x.hours)
	}
	got := map[string]int{}
	for _, s := range r.Sources {
		got[s.Source] += s.Count
	}
	if len(got) != len(r.Sources) || len(got) != len(x.sources) {
		t.Errorf("sources %v, counted %v", r.Sources, x.sources)
	}
	for src, n := range x.sources {
		if got[src] != n {
			t.Errorf("tickets taken at %q: %d, counted %d", src, got[src], n)
		}
	}
	for i, b := range r.WaitHistogram {
		if b.Count != x.hist[i] {
			t.Errorf("wait bucket %d: %d, counted %d", i, b.Count, x.hist[i])
		}
	}
	for _, s := range r.Services {
		want := x.services[s.Code]
		want.Code, want.Name = s.Code, s.Name
		if s != want {
			t.Errorf("service %s: %+v, counted %+v", s.Code, s, want)
		}
		delete(x.services, s.Code)
	}
	for code, s := range x.services {
		t.Errorf("service %s missing from the report: %+v", code, s)
	}
	for _, w := range r.Windows {
		want := x.windows[w.Number]
		want.Number, want.Name = w.Number, w.Name
		if w != want {
			t.Errorf("window %d: %+v, counted %+v", w.Number, w, want)
		}
		delete(x.windows, w.Number)
	}
	for n, w := range x.windows {
		t.Errorf("window %d missing from the report: %+v", n, w)
	}
	var stuck []string
	for _, s := range r.Stuck {
		stuck = append(stuck, s.Number)
	}
	sort.Strings(stuck)
	sort.Strings(x.stuck)
	if len(stuck) != len(x.stuck) || (len(stuck) > 0 && !equal(stuck, x.stuck)) {
		t.Errorf("stuck %v, counted %v", stuck, x.stuck)
	}
	for _, s := range r.Staff {
		if want, ok := x.staff[s.Number]; !ok || s != want {
			t.Errorf("staff %s: %+v, counted %+v", s.Number, s, want)
		}
		delete(x.staff, s.Number)
	}
	for n, s := range x.staff {
		t.Errorf("staff %s missing from the report: %+v", n, s)
	}
	if r.Estimate != x.estimate {
		t.Errorf("estimate accuracy %+v, recomputed %+v", r.Estimate, x.estimate)
	}
	ratio := 0.0
	if x.totals.Taken > 0 {
		ratio = float64(x.totals.Passed) / float64(x.totals.Taken)
	}
	if r.PassedRatio != ratio || r.PassedWarning != (ratio > 0.15) {
		t.Errorf("passed ratio %v warn %v, counted %v", r.PassedRatio, r.PassedWarning, ratio)
	}
}

func equal(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// tallyStatus counts one ticket's status code (seed 003's numbers).
func tallyStatus(t *reports.Totals, status int) {
	t.Taken++
	switch status {
	case 1:
		t.Waiting++
	case 2:
		t.Called++
	case 3:
		t.Passed++
	case 4:
		t.Serving++
	case 5:
		t.Done++
	case 6:
		t.Cancelled++
	}
}
