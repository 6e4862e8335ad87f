package reports

import (
	"strconv"
	"time"

	"jiaohao/model"
)

// BranchesCSV renders the report over several branches like CSV: a
// section per table, each with its header row. `branch` has a row per
// branch and `total` one over them all, with the same figures; then
// `branch_service` is every branch's services, and the sections of a
// branch's report (source, service, level, satisfaction, arrivals, wait,
// estimate) follow for all branches together.
func BranchesCSV(r BranchesReport) ([]byte, error) {
	rows := [][]string{
		{"report", "branches", "from", "to", "generated_at"},
		{"report", itoa(len(r.Branches)), r.First, r.Last, r.GeneratedAt.Format(time.RFC3339)},
		append([]string{"branch", "code", "name", "time_zone", "passed_warning"}, figureColumns...),
	}
	for _, b := range r.Branches {
		rows = append(rows, append([]string{"branch", b.Code, b.Name, b.Zone, strconv.FormatBool(b.Report.PassedWarning)},
			figureCells(b.Report, b.All)...))
	}
	rows = append(rows, append([]string{"total"}, figureColumns...), append([]string{"total"}, figureCells(r.Total, r.All)...))
	rows = append(rows, []string{"branch_service", "branch", "code", "name", "count", "called", "avg_wait_s", "median_wait_s", "p90_wait_s", "served", "avg_service_s", "requeued"})
	for _, b := range r.Branches {
		for _, line := range serviceCSV(b.Report)[1:] {
			rows = append(rows, append([]string{"branch_service", b.Code}, line[1:]...))
		}
	}
	t := r.Total
	rows = append(rows, sourceCSV(t)...)
	rows = append(rows, serviceCSV(t)...)
	rows = append(rows, levelCSV(t)...)
	rows = append(rows, satisfactionCSV(t)...)
	rows = append(rows, arrivalsCSV(t)...)
	rows = append(rows, waitCSV(t)...)
	rows = append(rows, estimateCSV(t)...)
	return writeCSV(rows)
}

// figureColumns are the figures of a branch row and of the total row.
var figureColumns = []string{"taken", "done", "passed", "cancelled", "waiting", "called", "serving", "passed_ratio",
	"first_called", "avg_wait_s", "median_wait_s", "p90_wait_s", "served", "avg_service_s", "requeued",
	"rated", "rating_rate", "very_satisfied", "satisfied", "fair", "unsatisfied",
	"very_satisfied_share", "satisfied_share", "fair_share", "unsatisfied_share"}

func figureCells(r Report, all ServiceStats) []string {
	t, s := r.Totals, r.Satisfaction.Total
	out := []string{itoa(t.Taken), itoa(t.Done), itoa(t.Passed), itoa(t.Cancelled), itoa(t.Waiting), itoa(t.Called), itoa(t.Serving),
		share(r.PassedRatio), itoa(all.Called), secs(all.AvgWait), secs(all.MedianWait), secs(all.P90Wait),
		itoa(all.Served), secs(all.AvgService), itoa(all.Requeued), itoa(s.Rated.Count()), share(s.RatingRate())}
	for _, sc := range model.Scores {
		out = append(out, itoa(s.Rated.Of(sc)))
	}
	for _, p := range levelParts(s.Rated, 10000) {
		out = append(out, strconv.FormatFloat(float64(p)/10000, 'f', 4, 64))
	}
	return out
}
