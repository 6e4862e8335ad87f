package reports_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"jiaohao/reports"
)

// checkBranchesCSV reads the CSV back: the branch rows carry each
// branch's report figures, the total row and the sections the total's.
func checkBranchesCSV(t *testing.T, r reports.BranchesReport) {
	t.Helper()
	b, err := reports.BranchesCSV(r)
	if err != nil {
		t.Fatal(err)
	}
	rows := csvRows(t, b)
	sections := map[string][][]string{}
	for _, row := range rows {
		sections[row[0]] = append(sections[row[0]], row[1:])
	}
	s := func(d time.Duration) string { return strconv.FormatInt(int64(d.Round(time.Second)/time.Second), 10) }
	figures := func(x reports.Report, all reports.ServiceStats) []string {
		n := x.Totals
		return []string{itoa(n.Taken), itoa(n.Done), itoa(n.Passed), itoa(n.Cancelled), itoa(n.Waiting), itoa(n.Called), itoa(n.Serving),
			strconv.FormatFloat(x.PassedRatio, 'f', 4, 64), itoa(all.Called), s(all.AvgWait), s(all.MedianWait), s(all.P90Wait),
			itoa(all.Served), s(all.AvgService), itoa(all.Requeued), itoa(x.Satisfaction.Total.Rated.Count())}
	}
	branch, total := sections["branch"], sections["total"]
	if len(branch) != len(r.Branches)+1 || len(total) != 2 || branch[0][0] != "code" || total[0][0] != "taken" {
		t.Fatalf("branch section %v, total %v", branch, total)
	}
	for i, row := range r.Branches {
		want := append([]string{row.Code, row.Name, row.Zone, strconv.FormatBool(row.Report.PassedWarning)}, figures(row.Report, row.All)...)
		if got := branch[i+1][:len(want)]; !slices.Equal(got, want) {
			t.Errorf("CSV branch row %v, want %v", got, want)
		}
	}
	if want := figures(r.Total, r.All); !slices.Equal(total[1][:len(want)], want) {
		t.Errorf("CSV total row %v, want %v", total[1], want)
	}
	svc := sections["service"]
	for i, x := range r.Total.Services {
		want := []string{x.Code, x.Name, itoa(x.Count), itoa(x.Called), s(x.AvgWait), s(x.MedianWait), s(x.P90Wait), itoa(x.Served), s(x.AvgService), itoa(x.Requeued)}
		if i+1 >= len(svc) || !slices.Equal(svc[i+1], want) {
			t.Errorf("CSV total service %s: %v, want %v", x.Code, svc, want)
		}
	}
	n := 0
	for _, row := range r.Branches {
		n += len(row.Report.Services)
	}
	if len(sections["branch_service"]) != n+1 {
		t.Errorf("branch_service has %d rows, the branches %d services", len(sections["branch_service"])-1, n)
	}
}

// checkBranchesPDF reads the PDF back: a line per branch and the total
// line carry the figures of the rows, in both languages.
func checkBranchesPDF(t *testing.T, tool string, r reports.BranchesReport) {
	t.Helper()
	for _, c := range []struct {
		lang         reports.Lang
		words        []string
		total, blank string
	}{{reports.LangZH, []string{"多网点业务统计报表", "分网点统计", "分业务统计（全部网点）", "客户满意度（全部网点）", "满意占比", "2026-03-02~2026-03-03"}, "合计", "-"},
		{reports.LangEN, []string{"Multi-branchservicereport", "Bybranch", "Byservice(allbranches)", "Arrivalsperhour(allbranches)", "Satisfied"}, "Total", "-"}} {
		b, err := reports.BranchesPDF(r, c.lang)
		if err != nil {
			t.Fatal(err)
		}
		out := readPDF(t, tool, b, "-layout")
		text := squash(out)
		for _, w := range c.words {
			if !strings.Contains(text, squash(w)) {
				t.Errorf("%s: the PDF text lacks %q", c.lang, w)
			}
		}
		line := func(name string, x reports.Report, all reports.ServiceStats) string {
			ratio := strconv.FormatFloat(x.PassedRatio*100, 'f', 1, 64) + "%"
			if x.PassedWarning {
				ratio = "!" + ratio
			}
			return squash(name + itoa(x.Totals.Taken) + itoa(x.Totals.Done) + itoa(x.Totals.Passed) + ratio +
				reports.Clock(all.AvgWait) + reports.Clock(all.P90Wait) + reports.Clock(all.AvgService) +
				strconv.FormatFloat(x.Satisfaction.Total.RatingRate()*100, 'f', 1, 64) + "%")
		}
		for _, row := range r.Branches {
			if w := line(row.Code+row.Name, row.Report, row.All); !strings.Contains(text, w) {
				t.Errorf("%s: the PDF text lacks the row %q", c.lang, w)
			}
		}
		if w := line(c.total, r.Total, r.All); !strings.Contains(text, w) {
			t.Errorf("%s: the PDF text lacks the total %q:\n%s", c.lang, w, out)
		}
	}
}
