package screens

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"jiaohao/model"
)

// Pools of the calls list: fixed, so a long day never grows the widget
// tree. A display shows as many call rows as fit (hallList.Layout).
const (
	hallRowsMax = 16 // call rows
	hallSvc     = 16 // waiting counts, one per service: a large branch has 12
	hallPassed  = 3  // lines of passed numbers
	hallWin     = 3  // lines of windows: what each serves, or that it is at lunch
	winsPerLn   = 3
	passedPerLn = 6
	// numberMin is a call's number's least text size, as a share of the
	// display's shorter side: the height of a landscape panel, so a panel
	// turned portrait shows more rows rather than larger ones.
	numberMin = 0.08
	rowFill   = 0.85 // of a row's height the number's line takes
	rowGap    = 0.08 // of a row's height left between rows
	rowInset  = 0.04 // of a row's height, its margin (inset)
)

// rowInner is the share of a row's height its texts' boxes get.
const rowInner = (1 - rowGap) * (1 - 2*rowInset)

// hallList is the calls-list body: the calls in progress as large
// "number → window" rows, newest first and highlighted, with a band of
// waiting counts, passed numbers and windows beside them in landscape and
// below them in portrait.
type hallList struct {
	box    *fyne.Container
	screen *fyne.Size // the hall's, for the rows' least height
	pal    palette
	title  *fyne.Container
	rows   [hallRowsMax]hallRow
	band   *fyne.Container
	shown  int // calls in progress now
	fits   int // rows the last layout found room for

	svc    [hallSvc]*canvas.Text
	passed [hallPassed]*canvas.Text
	wins   [hallWin]*canvas.Text
}

type hallRow struct {
	bg       *canvas.Rectangle
	num, win *canvas.Text
	box      *fyne.Container
}

func newHallList(screen *fyne.Size, pal palette) *hallList {
	l := &hallList{screen: screen, pal: pal}
	var title *canvas.Text
	title, l.title = fitText(fyne.TextAlignLeading, 0.75, pal.sub)
	title.Text = tr("hall.now_calling")
	objs := []fyne.CanvasObject{l.title}
	for i := range l.rows {
		r := &l.rows[i]
		r.bg = canvas.NewRectangle(pal.row)
		var nb, wb *fyne.Container
		r.num, nb = fitText(fyne.TextAlignCenter, rowFill, pal.num)
		r.win, wb = fitText(fyne.TextAlignCenter, rowFill*0.85, pal.text)
		r.num.TextStyle.Bold, r.win.TextStyle.Bold = true, true
		r.box = container.NewStack(r.bg, withLayout(inset{rowInset}, withLayout(shares{parts: []float32{56, 44}}, nb, wb)))
		r.box.Hide()
		objs = append(objs, r.box)
	}
	most := func() float32 { return min(screen.Width, screen.Height) * 0.075 }
	waiting, others := newTextLines(most), newTextLines(most)
	waiting.title(tr("hall.waiting"))
	for i := range l.svc {
		l.svc[i] = waiting.line(pal.text)
	}
	others.title(tr("hall.passed"))
	for i := range l.passed {
		l.passed[i] = others.line(pal.num)
	}
	others.title(tr("hall.windows"))
	for i := range l.wins {
		l.wins[i] = others.line(pal.text)
	}
	l.band = withLayout(bandLayout{most}, waiting.box, others.box)
	l.box = withLayout(l, append(objs, withLayout(inset{0.02}, l.band))...)
	return l
}

// show fills the list from s and returns the newest call's background,
// for the flash.
func (l *hallList) show(s model.Snapshot) *canvas.Rectangle {
	now := inProgress(s)
	l.shown = len(now)
	for i := range l.rows {
		r := &l.rows[i]
		if i >= len(now) {
			setText(r.num, "")
			setText(r.win, "")
			continue
		}
		setText(r.num, numberText(now[i]))
		setText(r.win, tr("hall.to_window", kv("N", now[i].Window))+hallClerk(s, now[i].Window))
		r.bg.FillColor = l.pal.row
		if i == 0 {
			r.bg.FillColor = l.pal.hot
		}
		r.bg.Refresh()
	}
	fillLines(l.svc[:], func(add func(string)) {
		for _, c := range s.Services {
			if c.Enabled {
				add(tr("hall.waiting_one", kv("Code", c.Code, "Name", c.Name, "N", c.Waiting)))
			}
		}
	})
	fillLines(l.passed[:], func(add func(string)) { joinLines(s.Passed, passedPerLn, "  ", add) })
	fillLines(l.wins[:], func(add func(string)) { hallWindows(s, add) })
	if len(now) == 0 {
		return nil
	}
	return l.rows[0].bg
}

// Layout puts the calls and the band side by side or one above the other
// and shows as many rows as fit at the least number size.
func (l *hallList) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	short := min(l.screen.Width, l.screen.Height)
	if short <= 0 {
		short = min(size.Width, size.Height)
	}
	calls, band := size, fyne.NewSize(0, 0)
	var bandAt fyne.Position
	if landscape(size) {
		calls.Width = size.Width * 0.66
		band, bandAt = fyne.NewSize(size.Width-calls.Width, size.Height), fyne.NewPos(calls.Width, 0)
	} else {
		calls.Height = size.Height * 0.68
		band, bandAt = fyne.NewSize(size.Width, size.Height-calls.Height), fyne.NewPos(0, calls.Height)
	}
	titleH := short * 0.055
	l.title.Move(fyne.NewPos(0, 0))
	l.title.Resize(fyne.NewSize(calls.Width, titleH))

	line := fyne.MeasureText("A0", fitProbe, fyne.TextStyle{Bold: true}).Height / fitProbe
	rowH := short * numberMin * line / (rowFill * rowInner)
	area := calls.Height - titleH
	l.fits = min(max(int(area/rowH), 1), hallRowsMax)
	rowH = area / float32(l.fits) // the rows share the column
	for i := range l.rows {
		r := &l.rows[i]
		r.box.Hidden = i >= l.fits || i >= l.shown // a plain field: no repaint inside a layout
		r.box.Move(fyne.NewPos(0, titleH+float32(i)*rowH))
		r.box.Resize(fyne.NewSize(calls.Width, rowH*(1-rowGap)))
	}
	b := objs[len(objs)-1]
	b.Move(bandAt)
	b.Resize(band)
}

func (*hallList) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }

// bandLayout puts the band's two columns of lines (the waiting counts;
// the passed numbers and the windows) one above the other in a narrow
// band, each as tall as its lines, and side by side in a wide one (a
// portrait display's bottom band).
type bandLayout struct{ most func() float32 }

func (bl bandLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	a, b := objs[0], objs[1]
	a.Move(fyne.NewPos(0, 0))
	if size.Width > size.Height*1.5 {
		w := size.Width / 2
		a.Resize(fyne.NewSize(w, size.Height))
		b.Move(fyne.NewPos(w, 0))
		b.Resize(fyne.NewSize(size.Width-w, size.Height))
		return
	}
	na, nb := shownLines(a), shownLines(b)
	// The lines' own height when they are capped: no gap between the two.
	h := min(size.Height*float32(na)/float32(max(na+nb, 1)), float32(na)*bl.most())
	a.Resize(fyne.NewSize(size.Width, h))
	b.Move(fyne.NewPos(0, h))
	b.Resize(fyne.NewSize(size.Width, size.Height-h))
}

func (bandLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }

// shownLines counts the lines of a textLines box that show.
func shownLines(o fyne.CanvasObject) int {
	n := 0
	for _, l := range o.(*fyne.Container).Objects {
		if lineShown(l) {
			n++
		}
	}
	return n
}

// fillLines writes lines into a fixed pool of texts and hides the rest,
// so the column closes up.
func fillLines(pool []*canvas.Text, fill func(add func(string))) {
	n := 0
	fill(func(s string) {
		if n < len(pool) {
			setText(pool[n], s)
			pool[n].Show()
			n++
		}
	})
	for ; n < len(pool); n++ {
		setText(pool[n], "")
		pool[n].Hide()
	}
}

// joinLines adds the tickets' numbers per lines of n.
func joinLines(ts []model.Ticket, n int, sep string, add func(string)) {
	var line []string
	for _, t := range ts {
		if line = append(line, t.Number); len(line) == n {
			add(strings.Join(line, sep))
			line = nil
		}
	}
	if len(line) > 0 {
		add(strings.Join(line, sep))
	}
}

// hallWindows tells the hall what each window serves now (a clerk may
// switch it, seed 003 §3.2) or that it is at lunch, so nobody waits at an
// empty desk; winsPerLn windows a line.
func hallWindows(s model.Snapshot, add func(string)) {
	var line []string
	for _, w := range s.Windows {
		switch w.Status {
		case model.WindowLunch:
			line = append(line, tr("hall.window_lunch", kv("N", w.Number)))
		case model.WindowOpen:
			line = append(line, tr("hall.window_one", kv("N", w.Number, "Services", strings.Join(w.Services, " "))))
		default:
			continue
		}
		if len(line) == winsPerLn {
			add(strings.Join(line, "    "))
			line = nil
		}
	}
	if len(line) > 0 {
		add(strings.Join(line, "    "))
	}
}
