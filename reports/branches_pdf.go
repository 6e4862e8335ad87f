package reports

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// BranchesPDF renders the report over several branches as an A4
// document: the branch table with its total row first, then the figures
// of all branches together in the sections of a branch's report. It is
// drawn twice, like PDF, for the page count.
func BranchesPDF(r BranchesReport, lang Lang) ([]byte, error) {
	d := drawBranches(r, lang, 0)
	d = drawBranches(r, lang, d.PageNo())
	if err := d.Error(); err != nil {
		return nil, fmt.Errorf("draw the PDF: %w", err)
	}
	var buf bytes.Buffer
	if err := d.Output(&buf); err != nil {
		return nil, fmt.Errorf("write the PDF: %w", err)
	}
	return buf.Bytes(), nil
}

func drawBranches(r BranchesReport, lang Lang, pages int) *pdfDoc {
	lb, w := labelsFor(lang), branchWordsFor(lang)
	d := newDoc(lb, w.Title+" "+r.Period(), r.GeneratedAt, pages)
	d.font(18)
	d.cell(0, 10, w.Title, "", 1, "C", false)
	d.font(11)
	for _, kv := range [][2]string{
		{w.Branches, itoa(len(r.Branches))},
		{lb.Period, r.Period()},
		{lb.Generated, r.GeneratedAt.Format("2006-01-02 15:04:05 MST")},
	} {
		d.cell(30, rowH, kv[0], "", 0, "L", false)
		d.cell(0, rowH, kv[1], "", 1, "L", false)
	}
	d.font(9)
	for _, note := range []string{w.Days, w.Median, w.Warned, w.Apart} {
		d.paragraph(note, 4.5)
	}
	d.heading(w.ByBranch)
	rows := make([][]string, 0, len(r.Branches)+1)
	for _, b := range r.Branches {
		rows = append(rows, branchCells(strings.TrimSpace(b.Code+" "+b.Name), b.Report, b.All))
	}
	rows = append(rows, branchCells(w.Total, r.Total, r.All))
	d.fitTable([]string{lb.Branch, lb.Taken, lb.Done, lb.Passed, w.PassedPct, w.AvgWait, w.P90Wait, w.AvgService, w.RatingRate, w.Satisfied},
		[]float64{2.4, 1, 1, 1, 1, 1, 1, 1, 1, 1}, rows)
	// The sections of a branch's report, for all branches together.
	for _, h := range []*string{&d.lb.Totals, &d.lb.Services, &d.lb.Levels, &d.lb.Satisfaction, &d.lb.Estimate, &d.lb.Arrivals, &d.lb.WaitDist} {
		*h += w.AllBranches
	}
	d.totals(r.Total, false) // each branch's passed threshold is its own
	d.services(r.Total)
	d.levels(r.Total)
	d.satisfaction(r.Total)
	d.estimate(r.Total)
	d.charts(r.Total)
	return d
}

// branchCells is one row of the branch table; a branch over its passed
// threshold is marked so it reads in black and white print too.
func branchCells(name string, r Report, all ServiceStats) []string {
	ratio := percent(r.PassedRatio)
	if r.PassedWarning {
		ratio = "! " + ratio
	}
	s := r.Satisfaction.Total
	rated, satisfied := "-", "-"
	if r.Satisfaction.Kept && s.Served > 0 {
		rated = percent(s.RatingRate())
	}
	if s.Rated.Count() > 0 {
		p := levelParts(s.Rated, 1000)
		satisfied = strconv.FormatFloat(float64(p[0]+p[1])/10, 'f', 1, 64) + "%"
	}
	return []string{name, itoa(r.Totals.Taken), itoa(r.Totals.Done), itoa(r.Totals.Passed), ratio,
		Clock(all.AvgWait), Clock(all.P90Wait), Clock(all.AvgService), rated, satisfied}
}

// fitTable is table for many columns: the text size is the largest (10
// points down to 7) at which every header and figure fits its column, a
// first column too long is cut, the header is drawn again on each page
// and the last row (the total) is shaded.
func (d *pdfDoc) fitTable(head []string, weights []float64, rows [][]string) {
	widths := columnWidths(weights)
	room := func(i int) float64 { return widths[i] - 2*d.GetCellMargin() }
	size := 10.0
	for ; size > 7; size -= 0.5 {
		d.font(size)
		if d.fits(head, room) && allFit(d, rows, room) {
			break
		}
	}
	header := func() {
		d.font(size)
		d.SetFillColor(0xe8, 0xee, 0xf5)
		for i, h := range head {
			d.cell(widths[i], rowH, d.clip(h, room(i)), "1", 0, "C", true)
		}
	}
	d.tableRows(header, len(rows), func(n int) {
		last := n == len(rows)-1
		d.SetFillColor(0xf2, 0xf2, 0xf2)
		for i, c := range rows[n] {
			align := "R"
			if i == 0 {
				align, c = "L", d.clip(c, room(i))
			}
			d.cell(widths[i], rowH, c, "1", 0, align, last)
		}
	})
}

// fits reports whether every cell but the first (which clip cuts) fits.
func (d *pdfDoc) fits(cells []string, room func(int) float64) bool {
	for i, c := range cells {
		if i > 0 && d.width(c) > room(i) {
			return false
		}
	}
	return true
}

func allFit(d *pdfDoc, rows [][]string, room func(int) float64) bool {
	for _, r := range rows {
		if !d.fits(r, room) {
			return false
		}
	}
	return true
}

// clip cuts s to the width w, ending it with "..." when cut.
func (d *pdfDoc) clip(s string, w float64) string {
	if d.width(s) <= w {
		return s
	}
	for s != "" && d.width(s+"...") > w {
		_, n := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-n]
	}
	return s + "..."
}

// paragraph writes text over as many lines of height h as it needs,
// breaking between words, or between any two Chinese characters.
func (d *pdfDoc) paragraph(text string, h float64) {
	var tokens []string
	for _, r := range text {
		n := len(tokens)
		if r != ' ' && r < 0x80 && n > 0 && tokens[n-1] != " " && tokens[n-1][0] < 0x80 {
			tokens[n-1] += string(r)
			continue
		}
		tokens = append(tokens, string(r))
	}
	line := ""
	for _, tk := range tokens {
		if line != "" && d.width(line+tk) > pageWidth-2*d.GetCellMargin() {
			d.cell(0, h, strings.TrimSpace(line), "", 1, "L", false)
			line = strings.TrimLeft(tk, " ")
			continue
		}
		line += tk
	}
	if line != "" {
		d.cell(0, h, strings.TrimSpace(line), "", 1, "L", false)
	}
}
