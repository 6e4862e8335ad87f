package reports_test

import (
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"jiaohao/model"
	"jiaohao/reports"
)

// The shares of the four levels a row writes add up to the whole, however
// the counts divide: three ratings of three levels are not 99.99 %.
func TestSatisfactionSharesSumToWhole(t *testing.T) {
	for _, levels := range [][4]int{{1, 1, 1, 0}, {1, 1, 1, 3}, {2, 2, 2, 1}, {0, 0, 0, 7}, {1, 5, 1, 0}} {
		row := reports.SatisfactionRow{Served: 10, Rated: model.Satisfaction{Levels: levels}}
		r := reports.Report{Satisfaction: reports.Satisfaction{Kept: true, Total: row}}
		out, err := reports.CSV(r)
		if err != nil {
			t.Fatal(err)
		}
		rd := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(out), "\ufeff")))
		rd.FieldsPerRecord = -1 // each section has its own columns
		recs, err := rd.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, rec := range recs {
			if rec[0] != "satisfaction" || rec[1] != "total" {
				continue
			}
			found = true
			sum := 0
			for _, f := range rec[11:15] {
				v, err := strconv.ParseFloat(f, 64)
				if err != nil {
					t.Fatal(err)
				}
				sum += int(v*10000 + 0.5)
			}
			if sum != 10000 {
				t.Errorf("levels %v: the CSV's shares %v add up to %d/10000", levels, rec[11:15], sum)
			}
		}
		if !found {
			t.Fatalf("no satisfaction total row in\n%s", out)
		}
	}
}
