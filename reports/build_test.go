package reports

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"jiaohao/model"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var shanghai = time.FixedZone("CST", 8*3600)

func at(day, clock string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04:05", day+" "+clock, shanghai)
	if err != nil {
		panic(err)
	}
	return t
}

func ptr[T any](v T) *T { return &v }

func TestPercentileIsNearestRank(t *testing.T) {
	var ten []time.Duration
	for i := 1; i <= 10; i++ {
		ten = append(ten, time.Duration(i)*time.Minute)
	}
	for _, c := range []struct {
		v    []time.Duration
		p    float64
		want time.Duration
	}{
		{ten, 0.5, 5 * time.Minute}, {ten, 0.9, 9 * time.Minute}, {ten[:3], 0.9, 3 * time.Minute},
		{ten[:3], 0.5, 2 * time.Minute}, {ten[:1], 0.9, time.Minute}, {nil, 0.5, 0}, {ten[:4], 0.5, 2 * time.Minute},
	} {
		if got := Percentile(c.v, c.p); got != c.want {
			t.Errorf("p%.0f of %d values = %v, want %v", c.p*100, len(c.v), got, c.want)
		}
	}
}

// TestAverageOfAYearOfLongWaits: the sum of a year's waits of a busy
// branch (3.6 million tickets of an hour and a half, 10,000 a day) is more
// than a Duration holds; summed as one it wrapped round and the average
// came out negative.
func TestAverageOfAYearOfLongWaits(t *testing.T) {
	waits := make([]time.Duration, 3_660_000)
	for i := range waits {
		waits[i] = 90*time.Minute + time.Duration(i%3)*time.Second // 1:30:00, :01, :02
	}
	if got, want := Average(waits), 90*time.Minute+time.Second; got != want {
		t.Errorf("Average = %v, want %v", got, want)
	}
	var d durations
	d.addAll(waits)
	if got := d.mean(); got != Average(waits) {
		t.Errorf("the total's mean %v, Average %v", got, Average(waits))
	}
}

// TestPausedTimeCountsBusinessHoursOnly: a pause that began before the
// period counts from the period's start, one that runs overnight counts
// only business hours, and one still running stops at the report time.
func TestPausedTimeCountsBusinessHoursOnly(t *testing.T) {
	p, err := NewPeriod("2026-03-02", "2026-03-03", shanghai)
	if err != nil {
		t.Fatal(err)
	}
	in := facts{period: p, now: at("2026-03-03", "16:45:00"), open: 9 * time.Hour, close: 17 * time.Hour,
		initial: map[int]model.WindowStatus{1: model.WindowPaused, 2: model.WindowOpen},
		changes: []model.WindowChange{
			{Window: 1, At: at("2026-03-02", "10:00:00"), Status: model.WindowOpen},
			{Window: 2, At: at("2026-03-02", "16:00:00"), Status: model.WindowPaused},
			{Window: 2, At: at("2026-03-03", "09:30:00"), Status: model.WindowOpen},
			{Window: 3, At: at("2026-03-03", "12:00:00"), Status: model.WindowClosed},
			{Window: 3, At: at("2026-03-03", "16:30:00"), Status: model.WindowPaused},
		}}
	got := pausedTime(in)
	want := map[int]time.Duration{1: time.Hour, 2: 90 * time.Minute, 3: 15 * time.Minute}
	for w, d := range want {
		if got[w] != d {
			t.Errorf("window %d paused %v, want %v", w, got[w], d)
		}
	}
}

// sampleFacts is a small hand-made day: every kind of outcome, a transfer
// between services, a recall (first call from the event log) and two
// tickets left at a window.
func sampleFacts() (facts, []model.TicketFact) {
	p, _ := Day("2026-03-02", shanghai)
	d := "2026-03-02"
	tk := func(id int64, issue, svc int64, num string, st model.Status, win int, issued, called, start, end string) model.TicketFact {
		f := model.TicketFact{ID: id, IssueServiceID: issue, ServiceID: svc, BusinessDate: d, Number: num, Status: int(st),
			IssuedAt: at(d, issued), CallCount: 1, Source: model.SourceKiosk}
		if win != 0 {
			f.WindowNo = ptr(win)
		}
		for _, x := range []struct {
			s string
			p **time.Time
		}{{called, &f.CalledAt}, {start, &f.ServeStartedAt}, {end, &f.FinishedAt}} {
			if x.s != "" {
				*x.p = ptr(at(d, x.s).UTC())
			}
		}
		f.IssuedAt = f.IssuedAt.UTC()
		return f
	}
	ts := []model.TicketFact{
		tk(1, 1, 1, "A001", model.Done, 1, "09:01:00", "09:03:00", "09:04:00", "09:10:00"),
		tk(2, 1, 1, "A002", model.Done, 2, "09:02:00", "09:20:00", "09:21:00", "09:25:30"),
		tk(3, 1, 1, "A003", model.Passed, 1, "09:05:00", "09:40:00", "", ""),
		tk(4, 2, 2, "B001", model.Done, 2, "10:15:00", "10:16:00", "10:17:00", "10:37:00"),
		tk(5, 2, 1, "B002", model.Done, 1, "10:30:00", "11:50:00", "11:51:00", "11:59:00"),
		tk(6, 1, 1, "A004", model.Cancelled, 0, "11:00:00", "", "", "11:30:00"),
		tk(7, 1, 1, "A005", model.Waiting, 0, "16:50:00", "", "", ""),
		tk(8, 2, 2, "B003", model.Called, 2, "16:20:00", "16:40:00", "", ""),
		tk(9, 3, 3, "V001", model.Serving, 1, "16:30:00", "16:31:00", "16:32:00", ""),
	}
	ts[4].CallCount = 3               // recalled, transferred from B to A, called again
	ts[6].Requeued = 1                // passed, requeued, waiting again (重叫)
	ts[3].Source = model.SourceWindow // taken by the clerk for a customer
	// The waits estimated at the take (none kept for A003): off by 1 min,
	// 8 min, 0 (B002's wait is to its first call) and 5 min.
	for i, est := range map[int]int{0: 60, 1: 600, 4: 900, 7: 1500} {
		ts[i].EstimateS = &est
	}
	return facts{branch: "测试网点", period: p, now: at("2026-03-03", "08:00:00"), open: 0, close: 24 * time.Hour,
		services: []model.Service{{ID: 1, Code: "A", Name: "个人业务", Enabled: true, SortOrder: 1},
			{ID: 2, Code: "B", Name: "对公业务", Enabled: true, SortOrder: 2}, {ID: 3, Code: "V", Name: "贵宾", Enabled: true, SortOrder: 3}},
		windows:   []model.Window{{Number: 1, Name: "1号窗口"}, {Number: 2, Name: "2号窗口"}},
		firstCall: map[int64]time.Time{5: at(d, "10:45:00").UTC()},
		changes: []model.WindowChange{{Window: 2, At: at(d, "12:00:00").UTC(), Status: model.WindowPaused},
			{Window: 1, At: at(d, "12:10:00").UTC(), Status: model.WindowLunch},
			{Window: 2, At: at(d, "12:40:00").UTC(), Status: model.WindowOpen},
			{Window: 1, At: at(d, "12:40:00").UTC(), Status: model.WindowPaused},
			{Window: 1, At: at(d, "12:45:00").UTC(), Status: model.WindowOpen}},
	}, ts
}

// build is the report of in over tickets, streamed through the tally as
// Generate streams rows.
func build(in facts, tickets []model.TicketFact) Report {
	t := newTally(in)
	for i := range tickets {
		t.add(&tickets[i])
	}
	return t.report()
}

func TestBuildSampleDay(t *testing.T) {
	r := build(sampleFacts())
	want := Totals{Taken: 9, Done: 4, Passed: 1, Cancelled: 1, Waiting: 1, Called: 1, Serving: 1}
	if r.Totals != want {
		t.Errorf("totals %+v, want %+v", r.Totals, want)
	}
	b := r.Services[1]
	// B's waits: B001 1m, B002 15m (first call from the log, not 80m), B003 20m.
	if b.Count != 3 || b.Called != 3 || b.AvgWait != 12*time.Minute || b.MedianWait != 15*time.Minute || b.P90Wait != 20*time.Minute {
		t.Errorf("service B %+v", b)
	}
	// B002 was served as A after the transfer: 8 minutes count for A.
	a := r.Services[0]
	if a.Served != 3 || a.AvgService != (6*time.Minute+4*time.Minute+30*time.Second+8*time.Minute)/3 {
		t.Errorf("service A %+v", a)
	}
	if w := r.Windows[1]; w.Served != 2 || w.Paused != 40*time.Minute {
		t.Errorf("window 2 %+v", w)
	}
	// Window 1 went from lunch straight to a pause: each counted apart.
	if w := r.Windows[0]; w.Lunch != 30*time.Minute || w.Paused != 5*time.Minute || r.Windows[1].Lunch != 0 {
		t.Errorf("window 1 %+v, window 2 %+v", w, r.Windows[1])
	}
	if a.Requeued != 1 || b.Requeued != 0 {
		t.Errorf("requeued: A %d, B %d; want 1, 0", a.Requeued, b.Requeued)
	}
	if len(r.Stuck) != 2 || r.Stuck[0].Number != "B003" || r.Stuck[1].Number != "V001" {
		t.Errorf("stuck %+v", r.Stuck)
	}
	// Nearest-rank median of 0, 1, 5, 8 minutes is 1; two of four within 3.
	if e := r.Estimate; e != (EstimateAccuracy{Compared: 4, MedianError: time.Minute, Within: 2, WithinShare: 0.5}) {
		t.Errorf("estimate accuracy %+v", e)
	}
	if r.PassedWarning { // 1 of 9 is 11%
		t.Errorf("warning at %.2f", r.PassedRatio)
	}
	in, ts := sampleFacts()
	ts[2].Status, ts[5].Status = int(model.Passed), int(model.Passed) // 2 of 9: 22%
	if r := build(in, ts); !r.PassedWarning {
		t.Errorf("no warning at %.2f", r.PassedRatio)
	}
}

// TestOutputIsDeterministic: with the generation time fixed, the CSV equals
// the golden file and the PDF is the same bytes every time.
func TestOutputIsDeterministic(t *testing.T) {
	r := build(sampleFacts())
	got, err := CSV(r)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "sample-day.csv")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update once to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("CSV differs from %s:\n%s", golden, got)
	}
	for _, lang := range []Lang{LangZH, LangEN} {
		a, err := PDF(r, lang)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := PDF(r, lang)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renderings of one report differ", lang)
		}
		if !bytes.Contains(a, []byte("D:20260303080000")) {
			t.Errorf("%s: the creation date is not the report's generation time", lang)
		}
	}
}

// The report's passed warning and the health summary's flags are the
// alerts' rule (model.AlertRules.PassedHigh): a share over the threshold
// counts only once the service, or the day, has alert_passed_min tickets,
// so the morning's verdict does not flag what the alerts ignored.
func TestPassedFlagNeedsTheAlertMinimum(t *testing.T) {
	in, ts := sampleFacts() // A: 1 of 5 passed (20 %); the day: 1 of 9
	in.rules, in.rulesSet = model.AlertRules{PassedPct: 10, PassedMin: 20}, true
	r := build(in, ts)
	h := HealthOf(r)
	if r.PassedWarning || len(h.PassedOver) != 0 || h.Total.Over || h.Services[0].Over {
		t.Fatalf("under alert_passed_min: warning %v, over %v, total %v", r.PassedWarning, h.PassedOver, h.Total.Over)
	}
	in.rules.PassedMin = 5
	r = build(in, ts)
	h = HealthOf(r)
	if !r.PassedWarning || len(h.PassedOver) != 1 || h.PassedOver[0] != "A" || !h.Flagged {
		t.Fatalf("at the minimum: warning %v, over %v (day 1 of 9 = 11 %% > 10 %%, A 20 %%)", r.PassedWarning, h.PassedOver)
	}
	for _, row := range h.Services {
		if want := r.PassedRules.PassedHigh(row.Taken, row.Passed); row.Over != want {
			t.Errorf("%s: %d of %d passed, over %v, the alerts' rule says %v", row.Code, row.Passed, row.Taken, row.Over, want)
		}
	}
}
