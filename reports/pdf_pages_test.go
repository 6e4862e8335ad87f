package reports_test

import (
	"cmp"
	"fmt"
	"html"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"jiaohao/model"
	"jiaohao/reports"
)

// A month of a big hall has more windows than a page holds. Read back
// word by word, with each word's box: every page the window table and
// the stuck-ticket table run onto starts with the table's header, their
// rows keep the first page's text size, and no page ends on a section's
// heading with the section on the next. The window count runs over a
// range so that the page break falls at every point of the sections
// between the window table and the charts (staff, levels, satisfaction,
// estimate), whose headings move with it.
func TestLongTablesRepeatTheirHeaderOnEachPage(t *testing.T) {
	tool := requireTool(t, "pdftotext")
	stuckNumber := regexp.MustCompile(`^A[0-9]{3}$`)
	tables := []pagedTable{
		{"window", "paused", func(w string) bool { return w == "Counter" }},
		{"stuck", "Issued", stuckNumber.MatchString},
	}
	headings := []string{"By staff", "By customer level", "Customer satisfaction", "Wait estimate accuracy"}
	for n := 40; n <= 64; n++ {
		pages := pdfWords(t, tool, pagedReport(n))
		for _, tb := range tables {
			tb.check(t, n, pages)
		}
		for p, words := range pages {
			last := lastLine(words)
			for _, h := range headings {
				if strings.HasPrefix(last, h) {
					t.Errorf("%d windows: page %d ends on the heading %q", n, p+1, last)
				}
			}
		}
	}
}

// pagedTable is a table of pagedReport as read back: head is a word of
// its header and of no other, row tells its rows' first words.
type pagedTable struct {
	name, head string
	row        func(string) bool
}

// check: the table of the report with n windows runs over at least two
// pages, has its header above its rows on each, all n rows in one size.
func (tb pagedTable) check(t *testing.T, n int, pages [][]word) {
	t.Helper()
	var rowH float64
	rowPages, seen := 0, 0
	for p, words := range pages {
		rows := wordsWhere(words, tb.row)
		if len(rows) == 0 {
			continue
		}
		rowPages, seen = rowPages+1, seen+len(rows)
		head := wordsWhere(words, func(w string) bool { return w == tb.head })
		if len(head) == 0 || head[0].yMin > rows[0].yMin {
			t.Fatalf("%d windows: page %d has %s rows but no table header above them", n, p+1, tb.name)
		}
		if rowH == 0 {
			rowH = rows[0].height()
		}
		for _, w := range rows {
			if d := w.height() - rowH; d > 0.05 || d < -0.05 {
				t.Fatalf("%d windows: a %s row on page %d is %.2f pt high, the first %.2f: the size changed at the break",
					n, tb.name, p+1, w.height(), rowH)
			}
		}
	}
	if rowPages < 2 {
		t.Fatalf("%d windows: the %s table fits one page; the test does not reach a page break", n, tb.name)
	}
	if seen != n {
		t.Errorf("%d windows: %d %s rows read back", n, seen, tb.name)
	}
}

// pagedReport is a day with n windows and as many stuck tickets, three
// clerks, two customer levels and ratings kept.
func pagedReport(n int) reports.Report {
	at := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	r := reports.Report{Branch: "Pages", GeneratedAt: at,
		Period:       reports.Period{From: at.Truncate(24 * time.Hour), To: at.Truncate(24*time.Hour).AddDate(0, 0, 1)},
		Services:     []reports.ServiceStats{{Code: "A", Name: "Cash", Count: n}},
		Staff:        []reports.StaffStats{{Number: "001", Name: "Li", Served: 3}, {Number: "002", Name: "Wang", Served: 2}, {Name: "", Served: 1}},
		Levels:       []reports.LevelStats{{Level: "Gold"}, {}},
		Satisfaction: reports.Satisfaction{Kept: true}}
	for i := range n {
		r.Windows = append(r.Windows, reports.WindowStats{Number: 100 + i, Name: "Counter", Served: i})
		r.Stuck = append(r.Stuck, reports.StuckTicket{Number: fmt.Sprintf("A%03d", i), Service: "A", BusinessDate: "2026-03-02",
			Status: model.Called, Window: 100 + i, IssuedAt: at})
	}
	return r
}

// word is one word pdftotext read, with its box in points.
type word struct {
	text       string
	yMin, yMax float64
}

func (w word) height() float64 { return w.yMax - w.yMin }

var (
	pageRE = regexp.MustCompile(`(?s)<page [^>]*>(.*?)</page>`)
	wordRE = regexp.MustCompile(`<word xMin="[0-9.]+" yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)">([^<]*)</word>`)
)

// pdfWords renders r in English and reads each page's words back.
func pdfWords(t *testing.T, tool string, r reports.Report) [][]word {
	t.Helper()
	b, err := reports.PDF(r, reports.LangEN)
	if err != nil {
		t.Fatal(err)
	}
	out := readPDF(t, tool, b, "-bbox")
	var pages [][]word
	for _, p := range pageRE.FindAllStringSubmatch(out, -1) {
		var words []word
		for _, m := range wordRE.FindAllStringSubmatch(p[1], -1) {
			y0, _ := strconv.ParseFloat(m[1], 64)
			y1, _ := strconv.ParseFloat(m[2], 64)
			words = append(words, word{text: html.UnescapeString(m[3]), yMin: y0, yMax: y1})
		}
		pages = append(pages, words)
	}
	if len(pages) == 0 {
		t.Fatalf("pdftotext read no pages:\n%s", out)
	}
	return pages
}

// wordsWhere is the page's words that match, top first.
func wordsWhere(words []word, match func(string) bool) []word {
	var out []word
	for _, w := range words {
		if match(w.text) {
			out = append(out, w)
		}
	}
	slices.SortStableFunc(out, func(a, b word) int { return cmp.Compare(a.yMin, b.yMin) })
	return out
}

// lastLine is the page's lowest line of text above its footer (the
// lowest of all), its words in pdftotext's reading order.
func lastLine(words []word) string {
	var ys []float64
	for _, w := range words {
		ys = append(ys, w.yMin)
	}
	slices.Sort(ys)
	ys = slices.CompactFunc(ys, func(a, b float64) bool { return math.Abs(a-b) < 1 })
	if len(ys) < 2 {
		return ""
	}
	y := ys[len(ys)-2]
	var parts []string
	for _, w := range words {
		if w.yMin > y-1 && w.yMin < y+1 {
			parts = append(parts, w.text)
		}
	}
	return strings.Join(parts, " ")
}
