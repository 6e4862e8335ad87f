package reports

import (
	"bytes"
	"fmt"
	"strings"
)

// HealthPDF renders the health summary as one A4 page (more when many
// tickets are stuck): the verdict first, then the figures per service and
// the stuck tickets with their window and since when.
func HealthPDF(h Health, lang Lang) ([]byte, error) {
	d := drawHealth(h, lang, 0)
	d = drawHealth(h, lang, d.PageNo())
	if err := d.Error(); err != nil {
		return nil, fmt.Errorf("draw the health PDF: %w", err)
	}
	var buf bytes.Buffer
	if err := d.Output(&buf); err != nil {
		return nil, fmt.Errorf("write the health PDF: %w", err)
	}
	return buf.Bytes(), nil
}

func drawHealth(h Health, lang Lang, pages int) *pdfDoc {
	lb, w := labelsFor(lang), healthWordsFor(lang)
	d := newDoc(lb, w.Title+" "+h.Date, h.CheckedAt, pages)
	d.font(18)
	d.cell(0, 10, w.Title, "", 1, "C", false)
	d.font(11)
	for _, kv := range [][2]string{{lb.Branch, h.Branch}, {lb.Date, h.Date}, {w.Checked, h.CheckedAt.Format("2006-01-02 15:04:05 MST")}} {
		d.cell(30, rowH, kv[0], "", 0, "L", false)
		d.cell(0, rowH, kv[1], "", 1, "L", false)
	}
	d.Ln(3)
	d.font(13)
	if !h.Flagged {
		d.SetTextColor(0x1b, 0x7a, 0x36)
		d.cell(0, 8, w.Fine, "", 1, "L", false)
	} else {
		d.SetTextColor(0xc0, 0x1c, 0x1c)
		d.cell(0, 8, w.Flagged, "", 1, "L", false)
		d.font(11)
		if len(h.Stuck) > 0 {
			d.cell(0, rowH, "- "+fmt.Sprintf(w.StuckN, len(h.Stuck)), "", 1, "L", false)
		}
		if len(h.PassedOver) > 0 {
			d.cell(0, rowH, "- "+fmt.Sprintf(w.PassedOver, threshold(h.Threshold), strings.Join(h.PassedOver, " ")), "", 1, "L", false)
		}
	}
	d.SetTextColor(0, 0, 0)
	d.heading(w.Table)
	rows := make([][]string, 0, len(h.Services)+1)
	for _, s := range h.Services {
		rows = append(rows, healthCells(strings.TrimSpace(s.Code+" "+s.Name), s))
	}
	rows = append(rows, healthCells(w.Total, h.Total))
	d.table([]string{lb.Service, lb.Taken, lb.Done, lb.Waiting, lb.Passed, w.Ratio, w.Stuck, lb.Cancelled},
		[]float64{2, 1, 1, 1, 1, 1, 1, 1}, rows)
	d.font(9.5)
	d.cell(0, rowH, fmt.Sprintf(w.Threshold, threshold(h.Threshold)), "", 1, "L", false)
	d.heading(w.StuckList)
	if len(h.Stuck) == 0 {
		d.font(10.5)
		d.cell(0, rowH, lb.StuckNone, "", 1, "L", false)
		return d
	}
	stuck := make([][]string, 0, len(h.Stuck))
	for _, s := range h.Stuck {
		since := ""
		if t := s.Since(); t != nil {
			since = t.Format("15:04:05")
		}
		stuck = append(stuck, []string{s.Number, s.Service, itoa(s.Window), statusName(lang, s.Status), since, s.IssuedAt.Format("15:04:05")})
	}
	d.table([]string{lb.Number, lb.Service, lb.Window, lb.Status, w.Since, lb.IssuedAt}, []float64{1, 0.8, 0.8, 1, 1.1, 1.1}, stuck)
	return d
}

// healthCells is one row of the service table; an over-threshold ratio
// is marked so it reads in black and white print too.
func healthCells(name string, r HealthRow) []string {
	ratio := percent(r.PassedRatio)
	if r.Over {
		ratio = "! " + ratio
	}
	return []string{name, itoa(r.Taken), itoa(r.Done), itoa(r.Waiting), itoa(r.Passed), ratio, itoa(r.Stuck()), itoa(r.Cancelled)}
}
