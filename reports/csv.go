package reports

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// CSV renders the report for spreadsheets. Every row starts with its
// section name and each section has its own header row, so the file reads
// both in Excel and in a program. Durations are whole seconds; column names
// are English and stable whatever the report language; new columns are
// added at a section's end, so a sheet reading the old ones still works. A UTF-8 byte order
// mark makes Excel read the Chinese names correctly.
func CSV(r Report) ([]byte, error) {
	t := r.Totals
	rows := [][]string{
		{"report", "branch", "from", "to", "generated_at"},
		{"report", r.Branch, r.Period.From.Format(DateLayout), r.Period.To.Format(DateLayout), r.GeneratedAt.Format(time.RFC3339)},
		{"totals", "taken", "done", "passed", "cancelled", "waiting", "called", "serving", "passed_ratio", "passed_warning"},
		{"totals", itoa(t.Taken), itoa(t.Done), itoa(t.Passed), itoa(t.Cancelled), itoa(t.Waiting), itoa(t.Called), itoa(t.Serving),
			strconv.FormatFloat(r.PassedRatio, 'f', 4, 64), strconv.FormatBool(r.PassedWarning)},
	}
	rows = append(rows, sourceCSV(r)...)
	rows = append(rows, serviceCSV(r)...)
	rows = append(rows, []string{"window", "number", "name", "served", "avg_service_s", "paused_s", "lunch_s"})
	for _, x := range r.Windows {
		rows = append(rows, []string{"window", itoa(x.Number), x.Name, itoa(x.Served), secs(x.AvgService), secs(x.Paused), secs(x.Lunch)})
	}
	rows = append(rows, []string{"staff", "number", "name", "served", "avg_service_s", "passed"})
	for _, x := range r.Staff {
		rows = append(rows, []string{"staff", x.Number, x.Name, itoa(x.Served), secs(x.AvgService), itoa(x.Passed)})
	}
	rows = append(rows, levelCSV(r)...)
	rows = append(rows, satisfactionCSV(r)...)
	rows = append(rows, arrivalsCSV(r)...)
	rows = append(rows, waitCSV(r)...)
	rows = append(rows, estimateCSV(r)...)
	rows = append(rows, []string{"stuck", "number", "service", "business_date", "status", "window", "issued_at", "called_at"})
	for _, s := range r.Stuck {
		called := ""
		if s.CalledAt != nil {
			called = s.CalledAt.Format(time.RFC3339)
		}
		rows = append(rows, []string{"stuck", s.Number, s.Service, s.BusinessDate, s.Status.String(), itoa(s.Window),
			s.IssuedAt.Format(time.RFC3339), called})
	}
	return writeCSV(rows)
}

// writeCSV is the file: the byte order mark, then the rows, each cell
// through inert (into rows of its own: a caller's row may be shared).
func writeCSV(rows [][]string) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("\ufeff")
	w := csv.NewWriter(&buf)
	for _, row := range rows {
		out := make([]string, len(row))
		for i, c := range row {
			out[i] = inert(c)
		}
		if err := w.Write(out); err != nil {
			return nil, fmt.Errorf("write the CSV: %w", err)
		}
	}
	if w.Flush(); w.Error() != nil {
		return nil, fmt.Errorf("write the CSV: %w", w.Error())
	}
	return buf.Bytes(), nil
}

// inert keeps a cell from being run as a formula when the file is opened
// in a spreadsheet: the names in a report are typed in by people (a
// window, a service, a clerk, the branch), and one that begins with =, +,
// -, @ or a tab or carriage return would otherwise be a formula Excel and
// WPS evaluate, links and commands included. Such a cell gets a leading
// apostrophe, which the spreadsheet shows as text. A plain negative
// number stays as it is: it is a number, not a formula.
func inert(c string) string {
	if c == "" || !strings.ContainsRune("=+-@\t\r", rune(c[0])) {
		return c
	}
	if c[0] == '-' && plainNumber(c[1:]) {
		return c
	}
	return "'" + c
}

// plainNumber: digits with at most one decimal point between them, as
// the reports write numbers (not "Inf" or "0x1p3", which a parser takes).
func plainNumber(s string) bool {
	digits, point := 0, false
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.' && !point && i > 0 && i < len(s)-1:
			point = true
		default:
			return false
		}
	}
	return digits > 0
}

func sourceCSV(r Report) [][]string {
	rows := [][]string{{"source", "source", "count"}}
	for _, s := range r.Sources {
		rows = append(rows, []string{"source", s.Source, itoa(s.Count)})
	}
	return rows
}

func serviceCSV(r Report) [][]string {
	rows := [][]string{{"service", "code", "name", "count", "called", "avg_wait_s", "median_wait_s", "p90_wait_s", "served", "avg_service_s", "requeued"}}
	for _, s := range r.Services {
		rows = append(rows, []string{"service", s.Code, s.Name, itoa(s.Count), itoa(s.Called), secs(s.AvgWait),
			secs(s.MedianWait), secs(s.P90Wait), itoa(s.Served), secs(s.AvgService), itoa(s.Requeued)})
	}
	return rows
}

// levelCSV is the section by customer level; a period with no identified
// customer has none, as before the register.
func levelCSV(r Report) [][]string {
	if len(r.Levels) == 0 {
		return nil
	}
	rows := [][]string{{"level", "level", "taken", "done", "passed", "called", "avg_wait_s"}}
	for _, x := range r.Levels {
		rows = append(rows, []string{"level", x.Level, itoa(x.Statuses.Taken), itoa(x.Statuses.Done), itoa(x.Statuses.Passed), itoa(x.Called), secs(x.AvgWait)})
	}
	return rows
}

func arrivalsCSV(r Report) [][]string {
	rows := [][]string{{"arrivals", "hour", "count"}}
	for h, n := range r.ArrivalsByHour {
		rows = append(rows, []string{"arrivals", itoa(h), itoa(n)})
	}
	return rows
}

func waitCSV(r Report) [][]string {
	rows := [][]string{{"wait", "from_min", "to_min", "count"}}
	for _, b := range r.WaitHistogram {
		to := ""
		if b.To != 0 {
			to = itoa(int(b.To.Minutes()))
		}
		rows = append(rows, []string{"wait", itoa(int(b.From.Minutes())), to, itoa(b.Count)})
	}
	return rows
}

func estimateCSV(r Report) [][]string {
	e := r.Estimate
	return [][]string{{"estimate", "compared", "median_abs_error_s", "within_3min", "within_3min_share"},
		{"estimate", itoa(e.Compared), secs(e.MedianError), itoa(e.Within), strconv.FormatFloat(e.WithinShare, 'f', 4, 64)}}
}

// secs is a duration in whole seconds, rounded.
func secs(d time.Duration) string {
	return strconv.FormatInt(int64(d.Round(time.Second)/time.Second), 10)
}
