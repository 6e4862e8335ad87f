package reports_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

// seedHealth is seed 002 §5.2's query, per issue service, with the
// statuses spelled out, run straight on the ticket table of the day.
const seedHealth = `SELECT s.code AS code, COUNT(*) AS total,
	SUM(CASE WHEN t.status = 5 THEN 1 ELSE 0 END) AS done,
	SUM(CASE WHEN t.status = 1 THEN 1 ELSE 0 END) AS waiting,
	SUM(CASE WHEN t.status = 3 THEN 1 ELSE 0 END) AS overdue,
	SUM(CASE WHEN t.status = 2 OR t.status = 4 THEN 1 ELSE 0 END) AS stuck,
	SUM(CASE WHEN t.status = 6 THEN 1 ELSE 0 END) AS cancelled
FROM ticket t JOIN service s ON s.id = t.issue_service_id
WHERE t.business_date = ? GROUP BY s.code`

type seedRow struct {
	Code                                            string
	Total, Done, Waiting, Overdue, Stuck, Cancelled int
}

// The health summary's figures equal the seed's own query on the raw rows,
// and a service is flagged exactly when its passed share is over the
// branch's threshold.
func TestHealthSummaryEqualsTheSeedQuery(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		seed(t, st, seededDay, 260)
		var want []seedRow
		if err := st.DB().Raw(seedHealth, seededDay).Scan(&want).Error; err != nil {
			t.Fatal(err)
		}
		d, err := reports.NewDaily(context.Background(), st, seededDay, reports.Options{Now: closedAt(st, seededDay)})
		if err != nil {
			t.Fatal(err)
		}
		h := d.Health
		got := map[string]reports.HealthRow{}
		for _, r := range h.Services {
			got[r.Code] = r
		}
		stuck := 0
		for _, w := range want {
			g := got[w.Code]
			if g.Taken != w.Total || g.Done != w.Done || g.Waiting != w.Waiting || g.Passed != w.Overdue ||
				g.Stuck() != w.Stuck || g.Cancelled != w.Cancelled {
				t.Errorf("%s: summary %+v, seed query %+v", w.Code, g, w)
			}
			if over := float64(w.Overdue)/float64(w.Total) > 0.15; g.Over != over {
				t.Errorf("%s: %d of %d passed, flagged %v", w.Code, w.Overdue, w.Total, g.Over)
			}
			stuck += w.Stuck
		}
		if len(h.Stuck) != stuck || h.Total.Stuck() != stuck || stuck == 0 {
			t.Fatalf("stuck list %d, total %d, seed query %d (the seeded day forgets some customers in serving)", len(h.Stuck), h.Total.Stuck(), stuck)
		}
		if !h.Flagged || h.Check().Stuck != stuck {
			t.Fatalf("a day with %d stuck tickets is not flagged: %+v", stuck, h.Check())
		}
		// The threshold is the branch's setting, not a constant; 0 turns it off.
		for _, pct := range []string{"100", "0"} {
			if err := st.SetSetting(context.Background(), "alert_passed_ratio_pct", pct); err != nil {
				t.Fatal(err)
			}
			d, err = reports.NewDaily(context.Background(), st, seededDay, reports.Options{Now: closedAt(st, seededDay)})
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Health.PassedOver) != 0 || d.Health.Threshold != 1 || d.Report.PassedWarning {
				t.Fatalf("at %s %% nothing is over the threshold: over %v, threshold %v", pct, d.Health.PassedOver, d.Health.Threshold)
			}
		}
		if err := st.SetSetting(context.Background(), "alert_passed_ratio_pct", "1"); err != nil {
			t.Fatal(err)
		}
		d, err = reports.NewDaily(context.Background(), st, seededDay, reports.Options{Now: closedAt(st, seededDay)})
		if err != nil || len(d.Health.PassedOver) == 0 || !d.Report.PassedWarning {
			t.Fatalf("at 1 %% the day's passed tickets are over it: over %v (%v)", d.Health.PassedOver, err)
		}
	})
}

// Save writes the day's four files, named by the date, and they read
// back: the PDF through pdftotext, the CSV as CSV.
func TestDailySaveReadsBack(t *testing.T) {
	tool := requireTool(t, "pdftotext")
	st := daotest.SQLite(t)
	ctx := context.Background()
	// Today: one finished, one left called, one left serving, one waiting.
	var tk [4]model.Ticket
	for i := range tk {
		var err error
		if tk[i], err = st.TakeTicket(ctx, "A", 0, model.SourceKiosk); err != nil {
			t.Fatal(err)
		}
	}
	for w, steps := range []int{3, 1, 2} { // window 1 finishes, 2 only calls, 3 starts serving
		c, err := st.CallNext(ctx, w+1, "")
		if err == nil && steps > 1 {
			c, err = st.StartServing(ctx, c.ID, w+1)
		}
		if err == nil && steps > 2 {
			_, err = st.Finish(ctx, c.ID, w+1)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	today := tk[0].BusinessDate
	d, err := reports.NewDaily(ctx, st, today, reports.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h := d.Health; len(h.Stuck) != 2 || h.Stuck[0].Number != tk[1].Number || h.Stuck[1].Number != tk[2].Number ||
		h.Stuck[0].Window != 2 || h.Stuck[1].Since() == nil || h.Total.Waiting != 1 || h.Total.Done != 1 {
		t.Fatalf("health %+v", h)
	}
	dir := filepath.Join(t.TempDir(), "health", "daily")
	if err := d.Save(dir, reports.LangZH); err != nil {
		t.Fatal(err)
	}
	names := model.HealthFiles(today)
	for _, n := range names {
		if !strings.Contains(n, today) {
			t.Errorf("%s does not carry the date", n)
		}
	}
	text, err := exec.Command(tool, "-layout", "-enc", "UTF-8", filepath.Join(dir, names[2]), "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"每日健康检查", today, "需要处理", "分业务健康度", "滞留号码", "合计"}
	for _, s := range d.Health.Stuck {
		want = append(want, s.Number)
	}
	for _, w := range want {
		if !strings.Contains(squash(string(text)), w) {
			t.Errorf("the health PDF lacks %q:\n%s", w, text)
		}
	}
	report, err := exec.Command(tool, "-layout", "-enc", "UTF-8", filepath.Join(dir, names[0]), "-").Output()
	if err != nil || !strings.Contains(squash(string(report)), "网点业务统计报表") {
		t.Fatalf("the day's report PDF does not read back (%v)", err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, names[3]))
	if err != nil {
		t.Fatal(err)
	}
	rows := csvRows(t, raw)
	var total []string
	stuckRows := 0
	for _, r := range rows {
		switch r[0] {
		case "total":
			total = r
		case "stuck":
			stuckRows++
		}
	}
	tt := d.Report.Totals
	if total == nil || total[3] != itoa(tt.Taken) || total[4] != itoa(tt.Done) || total[9] != itoa(tt.Called) || total[10] != itoa(tt.Serving) {
		t.Fatalf("CSV total %v, report totals %+v", total, tt)
	}
	if stuckRows-1 != len(d.Health.Stuck) || rows[1][4] != "true" {
		t.Fatalf("CSV has %d stuck rows and flagged %q, want %d and true", stuckRows-1, rows[1][4], len(d.Health.Stuck))
	}
}
