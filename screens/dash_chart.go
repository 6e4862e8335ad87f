package screens

import (
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// chartSegments bounds the segments of one service's line: a day of
// minutes is drawn at most this finely, whatever the business hours, so
// the canvas holds a fixed number of objects.
const chartSegments = 240

// chartColours tell the services apart; they repeat past the eighth.
var chartColours = []color.NRGBA{
	{R: 0x0b, G: 0x5c, B: 0xad, A: 0xff}, {R: 0xc6, G: 0x28, B: 0x28, A: 0xff}, {R: 0x2e, G: 0x7d, B: 0x32, A: 0xff},
	{R: 0xef, G: 0x6c, B: 0x00, A: 0xff}, {R: 0x6a, G: 0x1b, B: 0x9a, A: 0xff}, {R: 0x00, G: 0x83, B: 0x8f, A: 0xff},
	{R: 0x5d, G: 0x40, B: 0x37, A: 0xff}, {R: 0x54, G: 0x6e, B: 0x7a, A: 0xff},
}

// chartLine is one service on the chart.
type chartLine struct {
	code, name string
	points     []int // waiting per minute from the chart's start (DayBoard.Series)
	now        int   // waiting now, from the snapshot: the legend's count
}

// waitChart is the waiting of each service across the business hours: x
// the time of day from opening to closing, y the waiting count, a line a
// service and a legend with each one's count now.
type waitChart struct {
	widget.BaseWidget
	lines   []chartLine
	minutes int // the chart's width in minutes
	openMin int // the first minute's time of day, in minutes since midnight
}

func newWaitChart() *waitChart {
	c := &waitChart{minutes: 1}
	c.ExtendBaseWidget(c)
	return c
}

// set shows the board's series for the services in s (nil board: empty).
func (c *waitChart) set(b *model.DayBoard, s model.Snapshot) {
	c.lines = c.lines[:0]
	if b != nil {
		c.minutes = b.Minutes
		c.openMin = b.Open.Hour()*60 + b.Open.Minute()
		for _, sv := range s.Services {
			c.lines = append(c.lines, chartLine{code: sv.Code, name: sv.Name, points: b.Series(sv.Code), now: sv.Waiting})
		}
	}
	c.Refresh()
}

// current is a service's waiting at the chart's last minute.
func (c *waitChart) current(code string) int {
	for _, l := range c.lines {
		if l.code == code && len(l.points) > 0 {
			return l.points[len(l.points)-1]
		}
	}
	return 0
}

func (c *waitChart) MinSize() fyne.Size { return fyne.NewSize(480, 260) }

func (c *waitChart) CreateRenderer() fyne.WidgetRenderer {
	r := &chartRenderer{c: c, axisX: canvas.NewLine(colDim), axisY: canvas.NewLine(colDim), top: canvas.NewText("", colDim)}
	r.top.TextSize = theme.CaptionTextSize()
	return r
}

// chartPoints are a line's vertices: one per bucket of minutes (the
// bucket's most waiting), x by the minute over minutes, y by the count
// over top, in a w×h box with y growing down.
func chartPoints(points []int, minutes, top int, w, h float32) []fyne.Position {
	if len(points) == 0 || top <= 0 {
		return nil
	}
	step := max(1, (minutes+chartSegments-1)/chartSegments)
	var out []fyne.Position
	for start := 0; start < len(points); start += step {
		most := 0
		for _, v := range points[start:min(start+step, len(points))] {
			most = max(most, v)
		}
		out = append(out, fyne.NewPos(w*float32(start)/float32(max(1, minutes-1)), h-h*float32(most)/float32(top)))
	}
	if len(out) == 1 { // one minute so far: a short flat stroke, still visible
		out = append(out, fyne.NewPos(out[0].X+2, out[0].Y))
	}
	return out
}

// chartTop is the y axis' top: the day's most waiting, rounded up to a
// multiple of 5 so the scale does not move with every number.
func chartTop(lines []chartLine) int {
	most := 0
	for _, l := range lines {
		for _, v := range l.points {
			most = max(most, v)
		}
	}
	return max(5, (most+4)/5*5)
}

type chartRenderer struct {
	c            *waitChart
	axisX, axisY *canvas.Line
	top          *canvas.Text
	hours        []*canvas.Text
	segs         [][]*canvas.Line // per service
	legend       []*canvas.Text
}

// legendH and axisW leave room for the legend below and the scale beside.
const legendH, axisW, hoursH = 24, 32, 18

// layoutLegend writes a service's name and count now under the chart,
// wrapping to another line where the width ends, so a branch with many
// services keeps its legend inside the chart. It returns the lines used.
func (r *chartRenderer) layoutLegend(size fyne.Size) int {
	c := r.c
	for len(r.segs) < len(c.lines) {
		r.segs = append(r.segs, nil)
		r.legend = append(r.legend, canvas.NewText("", colDim))
	}
	var placed []*canvas.Text
	x, line := float32(axisW), 0
	for i, lg := range r.legend {
		if i >= len(c.lines) {
			lg.Hide()
			continue
		}
		lg.Color, lg.Text = chartColours[i%len(chartColours)], c.lines[i].code+" "+c.lines[i].name+" "+strconv.Itoa(c.lines[i].now)
		lg.Resize(lg.MinSize()) // measured as drawn, as a fit check measures it
		w := lg.Size().Width
		if x > axisW && x+w > size.Width {
			x, line = axisW, line+1
		}
		lg.Move(fyne.NewPos(x, float32(line)*legendH)) // moved below the plot once its height is known
		lg.Show()
		placed = append(placed, lg)
		x += w + 24
	}
	top := size.Height - float32(line+1)*legendH + 2
	for _, lg := range placed {
		lg.Move(lg.Position().AddXY(0, top))
	}
	return line + 1
}

func (r *chartRenderer) Layout(size fyne.Size) {
	c := r.c
	lines := r.layoutLegend(size)
	plotW, plotH := size.Width-axisW, size.Height-float32(lines)*legendH-hoursH
	r.axisY.Position1, r.axisY.Position2 = fyne.NewPos(axisW, 0), fyne.NewPos(axisW, plotH)
	r.axisX.Position1, r.axisX.Position2 = fyne.NewPos(axisW, plotH), fyne.NewPos(size.Width, plotH)
	top := chartTop(c.lines)
	r.top.Text = strconv.Itoa(top)
	r.top.Move(fyne.NewPos(0, 0))
	r.top.Resize(r.top.MinSize())
	// An hour mark for every hour (every other on a long day) of the chart.
	for len(r.hours) < 25 {
		r.hours = append(r.hours, canvas.NewText("", colDim))
		r.hours[len(r.hours)-1].TextSize = theme.CaptionTextSize()
	}
	every := 60
	if c.minutes > 12*60 {
		every = 120
	}
	n := 0
	for m := (60 - c.openMin%60) % 60; m < c.minutes && n < len(r.hours); m += every {
		h := r.hours[n]
		h.Text = strconv.Itoa((c.openMin+m)/60%24) + ":00"
		h.Move(fyne.NewPos(axisW+plotW*float32(m)/float32(max(1, c.minutes-1))-12, plotH+2))
		h.Resize(h.MinSize())
		h.Show()
		n++
	}
	for ; n < len(r.hours); n++ {
		r.hours[n].Hide()
	}
	for i := range r.segs {
		var pts []fyne.Position
		col := chartColours[i%len(chartColours)]
		if i < len(c.lines) {
			pts = chartPoints(c.lines[i].points, c.minutes, top, plotW, plotH)
		}
		for len(r.segs[i]) < len(pts)-1 {
			ln := canvas.NewLine(col)
			ln.StrokeWidth = 2
			r.segs[i] = append(r.segs[i], ln)
		}
		for j, ln := range r.segs[i] {
			if j >= len(pts)-1 {
				ln.Hide()
				continue
			}
			ln.StrokeColor = col
			ln.Position1 = pts[j].AddXY(axisW, 0)
			ln.Position2 = pts[j+1].AddXY(axisW, 0)
			ln.Show()
		}
	}
}

func (r *chartRenderer) MinSize() fyne.Size { return r.c.MinSize() }

func (r *chartRenderer) Refresh() {
	r.Layout(r.c.Size())
	for _, o := range r.Objects() {
		o.Refresh()
	}
}

func (r *chartRenderer) Objects() []fyne.CanvasObject {
	out := []fyne.CanvasObject{r.axisX, r.axisY, r.top}
	for _, h := range r.hours {
		out = append(out, h)
	}
	for i, segs := range r.segs {
		for _, ln := range segs {
			out = append(out, ln)
		}
		out = append(out, r.legend[i])
	}
	return out
}

func (r *chartRenderer) Destroy() {}
