package reports_test

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"jiaohao/app/demodata"
	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

// threeBranches fills one database with three branches: B001 (the first,
// in its own zone) on two days, BJ001 (copied from it, so the services
// share codes; some customers identify) on the first, LA001 (default
// services, Los Angeles) on the second and the day after the period.
func threeBranches(t *testing.T, st *sqlstore.GormStore) []reports.BranchSource {
	t.Helper()
	ctx := context.Background()
	if _, err := st.AddBranch(ctx, model.BranchInfo{Code: "BJ001", Name: "北京分行", TimeZone: "Asia/Shanghai"}, "B001"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddBranch(ctx, model.BranchInfo{Code: "LA001", Name: "Los Angeles", TimeZone: "America/Los_Angeles"}, ""); err != nil {
		t.Fatal(err)
	}
	bs := []reports.BranchSource{{Code: "B001", Src: st}}
	for _, code := range []string{"BJ001", "LA001"} {
		b, err := st.Branch(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		bs = append(bs, reports.BranchSource{Code: code, Src: b})
	}
	for _, s := range []struct {
		branch    int
		date      string
		tickets   int
		customers int
	}{{0, "2026-03-02", 70, 0}, {0, "2026-03-03", 40, 0}, {1, "2026-03-02", 50, 40}, {2, "2026-03-03", 60, 0}, {2, "2026-03-04", 20, 0}} {
		st := bs[s.branch].Src.(*sqlstore.GormStore)
		if _, err := demodata.Day(ctx, st, demodata.DayConfig{Date: s.date, Tickets: s.tickets, Customers: s.customers}); err != nil {
			t.Fatalf("seed %s %s: %v", bs[s.branch].Code, s.date, err)
		}
	}
	return bs
}

// reportedAt is the one instant every report of the test is made at: the
// day after the period has ended everywhere.
var reportedAt = time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)

// TestBranchesReportIsTheSumOfTheBranchReports is the multi-branch
// report's contract: each branch row is that branch's own report, the
// counts of the total are the sums of the branches', its averages weigh
// every ticket, and its medians and percentiles are those of every wait of
// every branch, recounted from the raw rows.
func TestBranchesReportIsTheSumOfTheBranchReports(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		ctx := context.Background()
		bs := threeBranches(t, st)
		const first, last = "2026-03-02", "2026-03-03"
		r, err := reports.GenerateBranches(ctx, bs, first, last, reports.Options{Now: reportedAt})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Branches) != 3 || r.GeneratedAt.Location() != time.UTC { // three zones: the time is in UTC
			t.Fatalf("%d rows, generated at %v", len(r.Branches), r.GeneratedAt)
		}
		var own []reports.Report
		var allWaits []time.Duration
		codeWaits := map[string][]time.Duration{}
		for i, b := range bs {
			p, err := reports.NewPeriod(first, last, b.Src.Location())
			if err != nil {
				t.Fatal(err)
			}
			want, err := reports.Generate(ctx, b.Src, p, reports.Options{Now: reportedAt})
			if err != nil {
				t.Fatal(err)
			}
			own = append(own, want)
			row := r.Branches[i]
			if row.Code != b.Code || !reflect.DeepEqual(row.Report, want) {
				t.Errorf("row %d (%s) is not the branch's own report:\n got %+v\nwant %+v", i, row.Code, row.Report.Totals, want.Totals)
			}
			if row.Name != want.Branch || row.Zone != b.Src.Location().String() {
				t.Errorf("row %s: name %q zone %q, report %q", row.Code, row.Name, row.Zone, want.Branch)
			}
			waits := rawWaits(t, b.Src.(*sqlstore.GormStore), first, last)
			var branch []time.Duration
			for code, ws := range waits {
				branch = append(branch, ws...)
				codeWaits[code] = append(codeWaits[code], ws...)
			}
			allWaits = append(allWaits, branch...)
			if len(branch) == 0 {
				t.Fatalf("branch %s: no wait in the raw rows", b.Code)
			}
			checkAll(t, "branch "+b.Code, row.All, want.Services, branch, false)
		}
		if own[0].Totals.Taken != 110 || own[1].Totals.Taken != 50 || own[2].Totals.Taken != 60 {
			t.Errorf("taken %d %d %d, seeded 110 50 60 (LA001's third day is outside)", own[0].Totals.Taken, own[1].Totals.Taken, own[2].Totals.Taken)
		}
		checkSums(t, r.Total, own)
		checkAll(t, "total", r.All, r.Total.Services, allWaits, true)
		for _, s := range r.Total.Services {
			var rows []reports.ServiceStats
			for _, o := range own {
				for _, x := range o.Services {
					if x.Code == s.Code {
						rows = append(rows, x)
					}
				}
			}
			checkAll(t, "service "+s.Code, s, rows, codeWaits[s.Code], true)
		}
		checkBranchesCSV(t, r)
		checkBranchesPDF(t, requireTool(t, "pdftotext"), r)
	})
}

// checkSums: every count of the total is the sum of the branches'.
func checkSums(t *testing.T, total reports.Report, own []reports.Report) {
	t.Helper()
	var want reports.Totals
	var hours [24]int
	hist := make([]int, len(total.WaitHistogram))
	sources, levels := map[string]int{}, map[string]reports.Totals{}
	var served, rated, compared, within int
	var sat model.Satisfaction
	for _, o := range own {
		want = sumTotals(want, o.Totals)
		for h, n := range o.ArrivalsByHour {
			hours[h] += n
		}
		for i, b := range o.WaitHistogram {
			hist[i] += b.Count
		}
		for _, s := range o.Sources {
			sources[s.Source] += s.Count
		}
		for _, l := range o.Levels {
			levels[l.Level] = sumTotals(levels[l.Level], l.Statuses)
		}
		if o.Levels == nil { // no table: nobody identified
			levels[""] = sumTotals(levels[""], o.Totals)
		}
		served, rated = served+o.Satisfaction.Total.Served, rated+o.Satisfaction.Total.Rated.Count()
		for i, n := range o.Satisfaction.Total.Rated.Levels {
			sat.Levels[i] += n
		}
		compared, within = compared+o.Estimate.Compared, within+o.Estimate.Within
	}
	if total.Totals != want || total.ArrivalsByHour != hours {
		t.Errorf("total %+v %v, sums %+v %v", total.Totals, total.ArrivalsByHour, want, hours)
	}
	if want.Taken == 0 || total.PassedRatio != float64(want.Passed)/float64(want.Taken) {
		t.Errorf("passed ratio %v of %+v", total.PassedRatio, want)
	}
	for i, b := range total.WaitHistogram {
		if b.Count != hist[i] {
			t.Errorf("wait bucket %d: %d, sum %d", i, b.Count, hist[i])
		}
	}
	got := map[string]int{}
	for _, s := range total.Sources {
		got[s.Source] = s.Count
	}
	if !reflect.DeepEqual(got, sources) {
		t.Errorf("sources %v, sums %v", got, sources)
	}
	gotLevels := map[string]reports.Totals{}
	for _, l := range total.Levels {
		gotLevels[l.Level] = l.Statuses
	}
	if len(levels) < 2 || !reflect.DeepEqual(gotLevels, levels) {
		t.Errorf("levels %v, sums %v (BJ001's customers identify)", gotLevels, levels)
	}
	s := total.Satisfaction
	if !s.Kept || s.Total.Served != served || s.Total.Rated != sat || rated == 0 {
		t.Errorf("satisfaction %+v, sums served %d rated %v", s.Total, served, sat)
	}
	e := total.Estimate
	if e.Compared != compared || e.Within != within || compared == 0 || e.WithinShare != float64(within)/float64(compared) {
		t.Errorf("estimate %+v, sums %d %d", e, compared, within)
	}
}

func sumTotals(a, b reports.Totals) reports.Totals {
	return reports.Totals{Taken: a.Taken + b.Taken, Done: a.Done + b.Done, Passed: a.Passed + b.Passed, Cancelled: a.Cancelled + b.Cancelled,
		Waiting: a.Waiting + b.Waiting, Called: a.Called + b.Called, Serving: a.Serving + b.Serving}
}

// checkAll compares a row over several services (or branches) with the
// service rows it sums and the raw waits it covers: counts add up, the
// averages are the rows' weighted by their samples (each row's own is
// cut to the millisecond, hence the slack), and the median and the 90th
// percentile are the textbook ones over every raw wait, to the second for
// a total.
func checkAll(t *testing.T, what string, got reports.ServiceStats, rows []reports.ServiceStats, raw []time.Duration, rounded bool) {
	t.Helper()
	var count, called, served, requeued int
	var waitSum, serviceSum float64
	for _, s := range rows {
		count, called, served, requeued = count+s.Count, called+s.Called, served+s.Served, requeued+s.Requeued
		waitSum += float64(s.AvgWait) * float64(s.Called)
		serviceSum += float64(s.AvgService) * float64(s.Served)
	}
	if got.Count != count || got.Called != called || got.Served != served || got.Requeued != requeued || got.Statuses.Taken != count {
		t.Errorf("%s: count %d called %d served %d requeued %d; rows sum to %d %d %d %d", what, got.Count, got.Called, got.Served, got.Requeued, count, called, served, requeued)
	}
	if called != len(raw) {
		t.Fatalf("%s: %d called, %d raw waits", what, called, len(raw))
	}
	if called == 0 { // a service nobody was called for
		if got.AvgWait != 0 || got.MedianWait != 0 || got.P90Wait != 0 {
			t.Errorf("%s: waits %+v of no sample", what, got)
		}
		return
	}
	near := func(d time.Duration, sum float64, n int) bool {
		return n == 0 && d == 0 || n > 0 && (float64(d)-sum/float64(n)) <= float64(time.Millisecond) && (sum/float64(n)-float64(d)) <= float64(time.Millisecond)
	}
	if !near(got.AvgWait, waitSum, called) || !near(got.AvgService, serviceSum, served) {
		t.Errorf("%s: avg wait %v, avg service %v; weighted %v %v", what, got.AvgWait, got.AvgService,
			time.Duration(waitSum/float64(called)), time.Duration(serviceSum/float64(max(served, 1))))
	}
	if got.AvgWait != mean(raw) {
		t.Errorf("%s: avg wait %v, raw mean %v", what, got.AvgWait, mean(raw))
	}
	ws := slices.Clone(raw)
	if rounded {
		for i := range ws {
			ws[i] = ws[i].Round(time.Second)
		}
	}
	slices.Sort(ws)
	median, p90 := ws[(5*len(ws)+9)/10-1], ws[(9*len(ws)+9)/10-1]
	if got.MedianWait != median || got.P90Wait != p90 {
		t.Errorf("%s: median %v p90 %v; over the %d raw waits %v %v", what, got.MedianWait, got.P90Wait, len(ws), median, p90)
	}
}

// rawWaits are the branch's waits (issue to first call event) by the code
// of the service each was issued under, from both ticket tables, selected
// by the issue time's local date as expect does.
func rawWaits(t *testing.T, st *sqlstore.GormStore, from, to string) map[string][]time.Duration {
	t.Helper()
	var all []rawTicket
	for _, table := range []string{"ticket", "ticket_history"} {
		var rows []rawTicket
		if err := st.DB().Table(table).Where("branch_id = ?", st.BranchID()).Find(&rows).Error; err != nil {
			t.Fatal(err)
		}
		all = append(all, rows...)
	}
	var events []rawEvent
	if err := st.DB().Table("queue_event").Where("kind = ?", "call").Find(&events).Error; err != nil {
		t.Fatal(err)
	}
	firstCall := map[int64]time.Time{}
	for _, e := range events {
		if e.TicketID == nil {
			continue
		}
		if f, ok := firstCall[*e.TicketID]; !ok || e.At.Before(f) {
			firstCall[*e.TicketID] = e.At
		}
	}
	codes := map[int64]string{}
	services, _ := st.Services(t.Context())
	for _, s := range services {
		codes[s.ID] = s.Code
	}
	out := map[string][]time.Duration{}
	for _, tk := range all {
		if d := tk.IssuedAt.In(st.Location()).Format("2006-01-02"); d < from || d > to {
			continue
		}
		if fc, ok := firstCall[tk.ID]; ok {
			out[codes[tk.IssueServiceID]] = append(out[codes[tk.IssueServiceID]], fc.Sub(tk.IssuedAt))
		}
	}
	return out
}

// TestBranchesReportOfOneBranchIsItsReport: over one branch the total is
// that branch's report, its medians and percentiles rounded to the second
// as the files write them.
func TestBranchesReportOfOneBranchIsItsReport(t *testing.T) {
	st := daotest.SQLite(t)
	seed(t, st, seededDay, 90)
	own := generate(t, st, seededDay, seededDay)
	bs := []reports.BranchSource{{Code: "B001", Src: st}}
	r, err := reports.GenerateBranches(context.Background(), bs, seededDay, seededDay, reports.Options{Now: closedAt(st, seededDay)})
	if err != nil {
		t.Fatal(err)
	}
	tot := r.Total
	if tot.Totals != own.Totals || tot.ArrivalsByHour != own.ArrivalsByHour || !reflect.DeepEqual(tot.Sources, own.Sources) ||
		!reflect.DeepEqual(tot.WaitHistogram, own.WaitHistogram) || !reflect.DeepEqual(tot.Satisfaction.Total, own.Satisfaction.Total) ||
		tot.Estimate.MedianError != own.Estimate.MedianError.Round(time.Second) || r.GeneratedAt.Location().String() != st.Location().String() {
		t.Errorf("total %+v\nbranch %+v", tot, own)
	}
	if len(tot.Services) != len(own.Services) {
		t.Fatalf("services %d, branch %d", len(tot.Services), len(own.Services))
	}
	for i, s := range tot.Services {
		o := own.Services[i]
		rounded := o
		rounded.MedianWait, rounded.P90Wait = o.MedianWait.Round(time.Second), o.P90Wait.Round(time.Second)
		if s != rounded {
			t.Errorf("service %s: total %+v, branch %+v", s.Code, s, o)
		}
	}
	// What a server sends: both files, named for the period.
	f, err := reports.RenderBranches(context.Background(), bs, seededDay, seededDay, reports.LangEN)
	if err != nil || f.Name != "jiaohao-branches-"+seededDay || !bytes.HasPrefix(f.PDF, []byte("%PDF-")) ||
		!bytes.Contains(f.CSV, []byte("\ntotal,90,")) {
		t.Errorf("rendered %q, %v; CSV:\n%.400s", f.Name, err, f.CSV)
	}
}

// TestBranchesReportRefusesBadInput: no branch, a branch twice or a bad
// date is one sentence and no report.
func TestBranchesReportRefusesBadInput(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := context.Background()
	one := []reports.BranchSource{{Code: "B001", Src: st}}
	for _, c := range []struct {
		bs          []reports.BranchSource
		first, last string
	}{{nil, "2026-03-02", "2026-03-02"}, {append(one, reports.BranchSource{Code: "b001", Src: st}), "2026-03-02", "2026-03-02"},
		{one, "2026-03-05", "2026-03-01"}, {one, "2026-02-30", "2026-03-01"}} {
		if _, err := reports.GenerateBranches(ctx, c.bs, c.first, c.last, reports.Options{}); model.ErrorCode(err) != model.EInvalidInput {
			t.Errorf("%d branches %s..%s: %v, want invalid input", len(c.bs), c.first, c.last, err)
		}
	}
}
