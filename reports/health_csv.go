package reports

import (
	"strconv"
	"strings"
	"time"
)

// HealthCSV renders the health summary for spreadsheets and scripts, in
// the daily report CSV's manner: each row starts with its section, each
// section has a header row, English column names, UTF-8 with a BOM.
func HealthCSV(h Health) ([]byte, error) {
	rows := [][]string{
		{"health", "branch", "business_date", "checked_at", "flagged", "stuck", "passed_threshold", "passed_over"},
		{"health", h.Branch, h.Date, h.CheckedAt.Format(time.RFC3339), strconv.FormatBool(h.Flagged), itoa(len(h.Stuck)),
			strconv.FormatFloat(h.Threshold, 'f', 4, 64), strings.Join(h.PassedOver, " ")},
		{"service", "code", "name", "taken", "done", "waiting", "passed", "passed_ratio", "over_threshold", "called", "serving", "cancelled"},
	}
	for _, s := range h.Services {
		rows = append(rows, healthRow("service", s))
	}
	rows = append(rows, healthRow("total", h.Total))
	rows = append(rows, []string{"stuck", "number", "service", "business_date", "status", "window", "since", "issued_at"})
	for _, s := range h.Stuck {
		since := ""
		if t := s.Since(); t != nil {
			since = t.Format(time.RFC3339)
		}
		rows = append(rows, []string{"stuck", s.Number, s.Service, s.BusinessDate, s.Status.String(), itoa(s.Window), since, s.IssuedAt.Format(time.RFC3339)})
	}
	return writeCSV(rows)
}

func healthRow(section string, r HealthRow) []string {
	return []string{section, r.Code, r.Name, itoa(r.Taken), itoa(r.Done), itoa(r.Waiting), itoa(r.Passed),
		strconv.FormatFloat(r.PassedRatio, 'f', 4, 64), strconv.FormatBool(r.Over), itoa(r.Called), itoa(r.Serving), itoa(r.Cancelled)}
}
