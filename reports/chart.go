package reports

import (
	"fmt"
	"strconv"
)

// Chart geometry in millimetres.
const (
	chartH   = 62.0
	axisW    = 12.0
	labelGap = 5.0
	// chartSpace is the height a chart takes: the gap above it, the
	// bars, the labels under them and the line with the unit.
	chartSpace = labelGap + chartH + labelGap + 4
)

// barChart draws one bar per value with its count on top and its label
// below, scaled to the largest value, at the current position.
func (d *pdfDoc) barChart(labels []string, values []int, unit string) {
	d.keep(chartSpace)
	top := d.GetY() + labelGap
	left := margin + axisW
	width := pageWidth - axisW
	peak := 0
	for _, v := range values {
		peak = max(peak, v)
	}
	scale := niceCeil(peak)
	d.font(8)
	d.SetDrawColor(0x90, 0x90, 0x90)
	for i := 0; i <= 4; i++ { // gridlines with their values
		y := top + chartH - chartH*float64(i)/4
		d.Line(left, y, left+width, y)
		d.text(margin, y+1, strconv.Itoa(scale*i/4))
	}
	d.SetDrawColor(0, 0, 0)
	d.SetFillColor(0x3b, 0x6e, 0xa8)
	slot := width / float64(max(len(values), 1))
	barW := slot * 0.7
	for i, v := range values {
		x := left + slot*float64(i) + (slot-barW)/2
		h := chartH * float64(v) / float64(scale)
		if v > 0 {
			d.Rect(x, top+chartH-h, barW, h, "F")
		}
		d.SetXY(left+slot*float64(i), top+chartH-h-4)
		d.cell(slot, 4, strconv.Itoa(v), "", 0, "C", false)
		d.SetXY(left+slot*float64(i), top+chartH+0.5)
		d.cell(slot, 4, labels[i], "", 0, "C", false)
	}
	d.SetXY(margin, top+chartH+labelGap)
	d.cell(0, 4, "("+unit+")", "", 1, "R", false)
	d.Ln(2)
}

// niceCeil is the chart's top value: four gridline steps of a round size
// (1, 2, 3, 4, 5, 6 or 8 times a power of ten) covering n.
func niceCeil(n int) int {
	pow := 1
	for {
		for _, m := range []int{1, 2, 3, 4, 5, 6, 8} {
			if step := m * pow; 4*step >= n {
				return 4 * step
			}
		}
		pow *= 10
	}
}

// activeHours is the span of hours to draw: business hours with arrivals,
// padded to at least 08–18 so a quiet day still reads as a day.
func activeHours(byHour [24]int) (first, last int) {
	first, last = 8, 18
	for h, n := range byHour {
		if n > 0 {
			first, last = min(first, h), max(last, h)
		}
	}
	return first, last
}

// bucketLabel is "0-5", "5-10" … "60+" in minutes.
func bucketLabel(b Bucket) string {
	from := int(b.From.Minutes())
	if b.To == 0 {
		return fmt.Sprintf("%d+", from)
	}
	return fmt.Sprintf("%d-%d", from, int(b.To.Minutes()))
}
