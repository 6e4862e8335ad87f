package reports

import (
	"jiaohao/assets"
)

// The embedded CJK font has no Latin letters or digits, so text is drawn
// in runs: ASCII in the PDF core font Helvetica (built into every viewer,
// nothing to embed), everything else in the CJK font.
const latinFont = "Helvetica"

// run is a piece of text one font can draw.
type run struct {
	s     string
	latin bool
}

// beyondFont stands for a character of the supplementary planes (the rare
// characters of Extension B and on, as in 𠮷): the PDF writer maps glyphs
// of the basic plane only and panics on any other.
const beyondFont = '□'

func runs(s string) []run {
	var out []run
	for _, r := range s {
		if r > 0xFFFF {
			r = beyondFont
		}
		latin := r < 0x80
		if n := len(out); n > 0 && out[n-1].latin == latin {
			out[n-1].s += string(r)
			continue
		}
		out = append(out, run{s: string(r), latin: latin})
	}
	return out
}

// font selects the text size (points) for the runs that follow.
func (d *pdfDoc) font(size float64) {
	d.size = size
	d.SetFont(assets.CJKFontName, "", size)
}

func (d *pdfDoc) runFont(r run) {
	if r.latin {
		d.SetFont(latinFont, "", d.size)
	} else {
		d.SetFont(assets.CJKFontName, "", d.size)
	}
}

func (d *pdfDoc) width(s string) float64 {
	var w float64
	for _, r := range runs(s) {
		d.runFont(r)
		w += d.GetStringWidth(r.s)
	}
	return w
}

// text draws s with its left end at x on the baseline y.
func (d *pdfDoc) text(x, y float64, s string) {
	for _, r := range runs(s) {
		d.runFont(r)
		d.Text(x, y, r.s)
		x += d.GetStringWidth(r.s)
	}
}

// cell is gofpdf's CellFormat for mixed-script text: the box (border, fill,
// page break) is gofpdf's; the text is placed run by run. w 0 reaches the
// right margin; ln 0 moves right, 1 to the next line.
func (d *pdfDoc) cell(w, h float64, s, border string, ln int, align string, fill bool) {
	if w == 0 {
		w = 210 - margin - d.GetX()
	}
	d.CellFormat(w, h, "", border, 0, "", fill, 0, "")
	x, y := d.GetX()-w, d.GetY() // after a page break the box is on the new page
	tw := d.width(s)
	start := x + d.GetCellMargin()
	switch align {
	case "C":
		start = x + (w-tw)/2
	case "R":
		start = x + w - d.GetCellMargin() - tw
	}
	_, unit := d.GetFontSize()
	d.text(start, y+0.5*h+0.3*unit, s)
	if ln == 1 {
		d.SetXY(margin, y+h)
	} else {
		d.SetXY(x+w, y)
	}
}
