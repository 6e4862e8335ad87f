package reports_test

import (
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
// word by word, with each word's box: every page the window table runs
// onto starts with the table's header, its rows keep the first page's
// text size, and no page ends on a section's heading with the section on
// the next. The window count runs over a range so that the page break
// falls at every point of the sections after the table.
func TestLongTablesRepeatTheirHeaderOnEachPage(t *testing.T) {
	tool := requireTool(t, "pdftotext")
	headings := []string{"Totals", "By service", "By window", "Customer satisfaction", "Wait estimate accuracy",
		"Wait distribution", "Status check"}
	for n := 40; n <= 64; n++ {
		r := pagedReport(n)
		pages := pdfWords(t, tool, r)
		var rowH float64
		rowPages := 0
		for p, words := range pages {
			rows := wordsAt(words, "Counter")
			if len(rows) == 0 {
				continue
			}
			rowPages++
			head := wordsAt(words, "Served")
			if len(head) == 0 || head[0].yMin > rows[0].yMin {
				t.Fatalf("%d windows: page %d has window rows but no table header above them", n, p+1)
			}
			for _, w := range rows {
				if rowH == 0 {
					rowH = w.height()
				}
				if d := w.height() - rowH; d > 0.05 || d < -0.05 {
					t.Fatalf("%d windows: a row on page %d is %.2f pt high, the first %.2f: the size changed at the break", n, p+1, w.height(), rowH)
				}
			}
		}
		if rowPages < 2 {
			t.Fatalf("%d windows fit one page: the test does not reach a page break", n)
		}
		seen := 0
		for p, words := range pages {
			last := lastLine(words)
			for _, h := range headings {
				if strings.HasPrefix(last, h) {
					t.Errorf("%d windows: page %d ends on the heading %q", n, p+1, last)
				}
			}
			seen += len(wordsAt(words, "Counter"))
		}
		if seen != n {
			t.Errorf("%d windows: %d window rows read back", n, seen)
		}
	}
}

// pagedReport is a day with n windows and as many stuck tickets.
func pagedReport(n int) reports.Report {
	at := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	r := reports.Report{Branch: "Pages", GeneratedAt: at,
		Period:   reports.Period{From: at.Truncate(24 * time.Hour), To: at.Truncate(24*time.Hour).AddDate(0, 0, 1)},
		Services: []reports.ServiceStats{{Code: "A", Name: "Cash", Count: n}}}
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

// wordsAt is the page's words equal to text, top first.
func wordsAt(words []word, text string) []word {
	var out []word
	for _, w := range words {
		if w.text == text {
			out = append(out, w)
		}
	}
	return out
}

// lastLine is the page's lowest line of text above its footer (the
// lowest of all), its words in the order drawn.
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
