package reports

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jung-kurt/gofpdf"

	"jiaohao/assets"
	"jiaohao/model"
)

// Page geometry in millimetres (A4 portrait).
const (
	margin    = 15.0
	pageWidth = 210.0 - 2*margin
	rowH      = 6.5
)

// pdfDoc is a report being drawn: the gofpdf document and the words.
type pdfDoc struct {
	*gofpdf.Fpdf
	lb   labels
	size float64 // current text size in points
}

// PDF renders the report as an A4 document. The creation date is the
// report's generation time, so the same report gives the same bytes. It is
// drawn twice: the first pass counts the pages for the "page n of m"
// footers (gofpdf's page-count alias would leave a gap in centred text).
func PDF(r Report, lang Lang) ([]byte, error) {
	d, err := draw(r, lang, 0)
	if err != nil {
		return nil, err
	}
	if d, err = draw(r, lang, d.PageNo()); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := d.Output(&buf); err != nil {
		return nil, fmt.Errorf("write the PDF: %w", err)
	}
	return buf.Bytes(), nil
}

func draw(r Report, lang Lang, pages int) (*pdfDoc, error) {
	lb := labelsFor(lang)
	d := newDoc(lb, lb.Title+" "+r.Period.String(), r.GeneratedAt, pages)
	f := d.Fpdf
	d.header(r)
	d.totals(r, true)
	d.services(r)
	d.windows(r)
	d.staff(r)
	d.levels(r)
	d.satisfaction(r)
	d.estimate(r)
	d.charts(r)
	d.stuck(r, lang)
	if err := f.Error(); err != nil {
		return nil, fmt.Errorf("draw the PDF: %w", err)
	}
	return d, nil
}

// newDoc starts an A4 document in the embedded font, dated at (so the
// same content gives the same bytes), with "page n of pages" footers.
func newDoc(lb labels, title string, at time.Time, pages int) *pdfDoc {
	f := gofpdf.New("P", "mm", "A4", "")
	d := &pdfDoc{Fpdf: f, lb: lb}
	f.SetCatalogSort(true)
	f.SetCreationDate(at)
	f.SetModificationDate(at)
	f.SetTitle(title, true)
	f.SetProducer("jiaohao", true)
	// Its own copy: cutting the subset writes into the bytes it was
	// given (an append onto a slice of them), and the embedded font is
	// shared with the screens and with any report drawn at the same time.
	f.AddUTF8FontFromBytes(assets.CJKFontName, "", bytes.Clone(assets.CJKFont))
	f.SetMargins(margin, margin, margin)
	f.SetAutoPageBreak(true, margin+5)
	f.SetFooterFunc(func() {
		// A page break comes in the middle of a table or a paragraph:
		// what follows on the next page keeps its size.
		defer d.font(d.size)
		f.SetY(-margin)
		d.font(9)
		d.cell(0, 5, fmt.Sprintf(d.lb.Page, f.PageNo(), pages), "", 0, "C", false)
	})
	f.AddPage()
	return d
}

// headingH is the height a heading takes: its gap, its line and the
// space under it.
const headingH = 4 + 8 + 1

// heading starts a section. A heading is never the last line of a page:
// unless it fits with a table's header and first row, it goes to the next.
func (d *pdfDoc) heading(text string) {
	d.keep(headingH + 2*rowH)
	d.Ln(4)
	d.font(13)
	d.SetTextColor(0x1f, 0x3a, 0x5f)
	d.cell(0, 8, text, "B", 1, "L", false)
	d.SetTextColor(0, 0, 0)
	d.Ln(1)
}

func (d *pdfDoc) header(r Report) {
	d.font(18)
	d.cell(0, 10, d.lb.Title, "", 1, "C", false)
	d.font(11)
	for _, kv := range [][2]string{
		{d.lb.Branch, r.Branch},
		{d.lb.Period, r.Period.String()},
		{d.lb.Generated, r.GeneratedAt.Format("2006-01-02 15:04:05 MST")},
	} {
		d.cell(30, rowH, kv[0], "", 0, "L", false)
		d.cell(0, rowH, kv[1], "", 1, "L", false)
	}
}

// totals is the report's counts, the open numbers, the passed ratio and
// the sources; withVerdict adds the passed verdict against the branch's
// threshold, which a total over branches with their own thresholds has not.
func (d *pdfDoc) totals(r Report, withVerdict bool) {
	t := r.Totals
	d.heading(d.lb.Totals)
	d.table([]string{d.lb.Taken, d.lb.Done, d.lb.Passed, d.lb.Cancelled, d.lb.Waiting, d.lb.Called, d.lb.Serving},
		[]float64{1, 1, 1, 1, 1, 1, 1},
		[][]string{{itoa(t.Taken), itoa(t.Done), itoa(t.Passed), itoa(t.Cancelled), itoa(t.Waiting), itoa(t.Called), itoa(t.Serving)}})
	d.font(10.5)
	d.cell(0, rowH, fmt.Sprintf("%s: %d", d.lb.Open, t.WaitingOrCalled()), "", 1, "L", false)
	ratio := fmt.Sprintf("%s: %s", d.lb.PassedRatio, percent(r.PassedRatio))
	if withVerdict {
		verdict := d.lb.PassedOK
		if r.PassedWarning {
			verdict = fmt.Sprintf(d.lb.PassedWarn, threshold(r.PassedThreshold))
			d.SetTextColor(0xc0, 0x1c, 0x1c)
		}
		ratio += "  " + verdict
	}
	d.cell(0, rowH, ratio, "", 1, "L", false)
	d.SetTextColor(0, 0, 0)
	d.sources(r)
}

// sources is one line: how many numbers each source took.
func (d *pdfDoc) sources(r Report) {
	if len(r.Sources) == 0 {
		return
	}
	parts := make([]string, len(r.Sources))
	for i, s := range r.Sources {
		name := s.Source
		if n, ok := d.lb.SourceNames[name]; ok {
			name = n
		}
		parts[i] = fmt.Sprintf("%s %d", name, s.Count)
	}
	d.cell(0, rowH, d.lb.BySource+": "+strings.Join(parts, " · "), "", 1, "L", false)
}

func (d *pdfDoc) services(r Report) {
	d.heading(d.lb.Services)
	rows := make([][]string, 0, len(r.Services))
	for _, s := range r.Services {
		rows = append(rows, []string{s.Code + " " + s.Name, itoa(s.Count), Clock(s.AvgWait), Clock(s.MedianWait),
			Clock(s.P90Wait), Clock(s.AvgService), itoa(s.Requeued)})
	}
	d.table([]string{d.lb.Service, d.lb.Count, d.lb.AvgWait, d.lb.MedianWait, d.lb.P90Wait, d.lb.AvgService, d.lb.Requeued},
		[]float64{2, 1, 1.1, 1.1, 1.1, 1.3, 1}, rows)
}

func (d *pdfDoc) windows(r Report) {
	d.heading(d.lb.Windows)
	rows := make([][]string, 0, len(r.Windows))
	for _, w := range r.Windows {
		name := itoa(w.Number)
		if !strings.HasPrefix(w.Name, name) { // "1号窗口" already says 1
			name = strings.TrimSpace(name + " " + w.Name)
		} else {
			name = w.Name
		}
		rows = append(rows, []string{name, itoa(w.Served), Clock(w.AvgService), Clock(w.Paused), Clock(w.Lunch)})
	}
	d.table([]string{d.lb.Window, d.lb.Served, d.lb.AvgService, d.lb.PausedTime, d.lb.LunchTime}, []float64{2, 1, 1.3, 1.3, 1.3}, rows)
}

// staff is the per-staff table; a day nobody signed in has none.
func (d *pdfDoc) staff(r Report) {
	if len(r.Staff) == 0 {
		return
	}
	d.heading(d.lb.Staff)
	rows := make([][]string, 0, len(r.Staff))
	for _, s := range r.Staff {
		who := s.Number + " " + s.Name
		if s.Number == "" {
			who = d.lb.NoClerk
		}
		rows = append(rows, []string{who, itoa(s.Served), Clock(s.AvgService), itoa(s.Passed)})
	}
	d.table([]string{d.lb.Clerk, d.lb.Served, d.lb.AvgService, d.lb.Passed}, []float64{2, 1, 1.3, 1}, rows)
}

// estimate is how right the waits told at the kiosk were.
func (d *pdfDoc) estimate(r Report) {
	e := r.Estimate
	d.heading(d.lb.Estimate)
	d.table([]string{d.lb.EstCompared, d.lb.EstMedianError, d.lb.EstWithin},
		[]float64{1, 1, 1}, [][]string{{itoa(e.Compared), Clock(e.MedianError), fmt.Sprintf("%d (%s)", e.Within, percent(e.WithinShare))}})
}

func (d *pdfDoc) charts(r Report) {
	d.AddPage()
	d.heading(d.lb.Arrivals)
	first, last := activeHours(r.ArrivalsByHour)
	var labels []string
	var values []int
	for h := first; h <= last; h++ {
		labels, values = append(labels, fmt.Sprintf("%02d", h)), append(values, r.ArrivalsByHour[h])
	}
	d.barChart(labels, values, d.lb.Hour)
	d.keep(headingH + chartSpace)
	d.heading(d.lb.WaitDist)
	labels, values = nil, nil
	for _, b := range r.WaitHistogram {
		labels, values = append(labels, bucketLabel(b)), append(values, b.Count)
	}
	d.barChart(labels, values, d.lb.Minutes)
}

func (d *pdfDoc) stuck(r Report, lang Lang) {
	d.heading(d.lb.Stuck)
	if len(r.Stuck) == 0 {
		d.font(10.5)
		d.cell(0, rowH, d.lb.StuckNone, "", 1, "L", false)
		return
	}
	rows := make([][]string, 0, len(r.Stuck))
	for _, s := range r.Stuck {
		called := ""
		if s.CalledAt != nil {
			called = s.CalledAt.Format("15:04:05")
		}
		rows = append(rows, []string{s.Number, s.Service, s.BusinessDate, statusName(lang, s.Status),
			itoa(s.Window), s.IssuedAt.Format("15:04:05"), called})
	}
	d.table([]string{d.lb.Number, d.lb.Service, d.lb.Date, d.lb.Status, d.lb.Window, d.lb.IssuedAt, d.lb.CalledAt},
		[]float64{1, 0.8, 1.3, 1, 0.8, 1.1, 1.1}, rows)
}

// table draws a header row and data rows; weights share the page width.
func (d *pdfDoc) table(head []string, weights []float64, rows [][]string) {
	widths := columnWidths(weights)
	d.font(10)
	header := func() {
		d.SetFillColor(0xe8, 0xee, 0xf5)
		for i, h := range head {
			d.cell(widths[i], rowH, h, "1", 0, "C", true)
		}
	}
	d.tableRows(header, len(rows), func(n int) {
		for i, c := range rows[n] {
			align := "R"
			if i == 0 {
				align = "L"
			}
			d.cell(widths[i], rowH, c, "1", 0, align, false)
		}
	})
}

// columnWidths shares the page width among columns by weight.
func columnWidths(weights []float64) []float64 {
	var sum float64
	for _, w := range weights {
		sum += w
	}
	widths := make([]float64, len(weights))
	for i, w := range weights {
		widths[i] = pageWidth * w / sum
	}
	return widths
}

// tableRows draws a table's header and then its n rows, one line each. A
// row that would cross the page's foot goes to the next page under the
// header drawn again, so a long table (a busy month's windows, the day's
// stuck tickets) reads on every page without turning back; the header
// itself only starts where its first row fits under it.
func (d *pdfDoc) tableRows(header func(), n int, row func(i int)) {
	d.keep(2 * rowH)
	header()
	d.Ln(-1)
	for i := 0; i < n; i++ {
		if d.GetY()+rowH > d.pageFoot() {
			d.AddPage()
			header()
			d.Ln(-1)
		}
		row(i)
		d.Ln(-1)
	}
}

// pageFoot is where the automatic page break falls.
func (d *pdfDoc) pageFoot() float64 {
	_, height := d.GetPageSize()
	_, bottom := d.GetAutoPageBreak()
	return height - bottom
}

// keep starts a new page unless h millimetres fit below the current line.
func (d *pdfDoc) keep(h float64) {
	if d.GetY()+h > d.pageFoot() {
		d.AddPage()
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func percent(r float64) string { return strconv.FormatFloat(r*100, 'f', 1, 64) + "%" }

// threshold is a setting's share as the manager typed it: 15%.
func threshold(r float64) string { return strconv.FormatFloat(r*100, 'f', -1, 64) + "%" }

// Clock writes a duration rounded to the second as m:ss or h:mm:ss.
func Clock(d time.Duration) string { return model.ClockText(d) }
