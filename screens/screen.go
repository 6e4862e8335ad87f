package screens

import (
	"context"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"jiaohao/model"
)

// Pool sizes of the hall screen: fixed, so a long day never grows the
// widget tree.
const (
	hallRows    = 5 // calls in progress, large
	hallSvc     = 8 // waiting counts per service
	hallPassed  = 3 // lines of passed numbers
	hallRecent  = 5 // last calls
	hallWin     = 3 // lines of windows: what each serves, or that it is at lunch
	winsPerLn   = 3
	passedPerLn = 6
)

// Hall is the wall display (frmScreen): calls in progress as large
// "number → window" rows with the newest flashing, the last calls, waiting
// counts, passed numbers, branch, date and server clock, and the notice.
// Each call is announced once, in order, by the Announcer.
type Hall struct {
	base
	ann  Announcer
	say  chan model.Ticket
	down bool // the link to the queue is lost

	w        fyne.Window
	pal      palette      // the branch's colours, or the hall's own
	logoData []byte       // the branch logo, nil: none
	last     model.Change // the state on screen, to draw again in new colours
	logo     *logoView

	sc                          scaler
	rows                        [hallRows]hallRow
	svc                         [hallSvc]*canvas.Text
	passed                      [hallPassed]*canvas.Text
	recent                      [hallRecent]*canvas.Text
	wins                        [hallWin]*canvas.Text
	branch, date, clockT, linkT *canvas.Text
	notice                      *marquee
	header                      *fyne.Container
	flash                       *fyne.Animation
	content                     fyne.CanvasObject
}

type hallRow struct {
	bg       *canvas.Rectangle
	num, win *canvas.Text
	box      *fyne.Container
}

// NewHall builds the hall screen in w and follows the store until ctx
// ends; ann speaks each call (nil: log only).
func NewHall(ctx context.Context, w fyne.Window, st model.Store, ann Announcer) *Hall {
	if ann == nil {
		ann = LogAnnouncer{}
	}
	h := &Hall{ann: ann, say: make(chan model.Ticket, 64), w: w, pal: hallPalette(model.Look{})}
	h.build()
	w.SetPadded(false)
	w.SetContent(h.content)
	h.start(ctx, st, h)
	h.wg.Go(func() { h.announce(ctx) })
	h.wg.Go(func() { h.tick(ctx) })
	return h
}

// Content is the hall's root object.
func (h *Hall) Content() fyne.CanvasObject { return h.content }

func (h *Hall) build() {
	sc, pal := &h.sc, h.pal
	h.branch = sc.add(canvas.NewText("", pal.text), 44)
	h.date = sc.add(canvas.NewText("", pal.sub), 34)
	h.clockT = sc.add(canvas.NewText("", pal.text), 44)
	h.linkT = sc.add(canvas.NewText("", pal.warn), 36)
	h.logo = newLogoView(h.branch)
	h.logo.set(h.logoData)
	h.header = container.NewBorder(nil, nil, container.NewHBox(h.logo.box, h.branch), container.NewHBox(h.date, h.clockT), container.NewCenter(h.linkT))

	left := container.NewVBox(sc.add(canvas.NewText(tr("hall.now_calling"), pal.sub), 36))
	for i := range h.rows {
		r := &h.rows[i]
		r.bg = canvas.NewRectangle(pal.row)
		r.num = sc.add(bigText("", 130, pal.num), 130)
		r.win = sc.add(bigText("", 96, pal.text), 96)
		r.box = container.NewStack(r.bg, container.NewGridWithColumns(2, r.num, r.win))
		r.box.Hide()
		left.Add(r.box)
	}
	right := container.NewVBox(sc.add(canvas.NewText(tr("hall.waiting"), pal.sub), 36))
	for i := range h.svc {
		h.svc[i] = sc.add(canvas.NewText("", pal.text), 40)
		right.Add(h.svc[i])
	}
	right.Add(sc.add(canvas.NewText(tr("hall.passed"), pal.sub), 36))
	for i := range h.passed {
		h.passed[i] = sc.add(canvas.NewText("", pal.num), 40)
		right.Add(h.passed[i])
	}
	right.Add(sc.add(canvas.NewText(tr("hall.recent"), pal.sub), 36))
	for i := range h.recent {
		h.recent[i] = sc.add(canvas.NewText("", pal.text), 34)
		right.Add(h.recent[i])
	}
	right.Add(sc.add(canvas.NewText(tr("hall.windows"), pal.sub), 30))
	for i := range h.wins {
		h.wins[i] = sc.add(canvas.NewText("", pal.text), 30)
		right.Add(h.wins[i])
	}
	h.notice = newMarquee(sc, 40, pal.num)
	body := withLayout(ratio{0.62}, container.NewPadded(left), container.NewPadded(right))
	inner := container.NewBorder(container.NewPadded(h.header), h.notice.box, nil, nil, body)
	h.content = withLayout(sc, canvas.NewRectangle(pal.bg), inner)
	h.showClock()
}

// show takes a new live state on the UI goroutine.
func (h *Hall) show(u model.Change) {
	s := u.Snapshot
	h.last = model.Change{Snapshot: s}
	if u.Reloaded {
		h.loadLook(h.applyLook)
	}
	setText(h.branch, s.Branch)
	h.notice.set(s.Notice)
	now := inProgress(s)
	for i := range h.rows {
		r := &h.rows[i]
		if i >= len(now) {
			r.box.Hide()
			continue
		}
		setText(r.num, numberText(now[i]))
		setText(r.win, tr("hall.to_window", kv("N", now[i].Window)))
		r.bg.FillColor = h.pal.row
		if i == 0 {
			r.bg.FillColor = h.pal.hot
		}
		r.bg.Refresh()
		r.box.Show()
	}
	fillLines(h.svc[:], func(add func(string)) {
		for _, c := range s.Services {
			if c.Enabled {
				add(tr("hall.waiting_one", kv("Code", c.Code, "Name", c.Name, "N", c.Waiting)))
			}
		}
	})
	fillLines(h.passed[:], func(add func(string)) {
		var line []string
		for _, t := range s.Passed {
			if line = append(line, t.Number); len(line) == passedPerLn {
				add(strings.Join(line, "  "))
				line = nil
			}
		}
		if len(line) > 0 {
			add(strings.Join(line, "  "))
		}
	})
	fillLines(h.recent[:], func(add func(string)) {
		for _, t := range s.RecentCalls {
			add(tr("hall.recent_one", kv("Number", t.Number, "N", t.Window)))
		}
	})
	fillLines(h.wins[:], func(add func(string)) { hallWindows(s, add) })
	// Rows and lines show and hide: lay the screen out again.
	h.content.Refresh()
	for _, ev := range u.Events {
		if model.IsCall(ev) {
			h.startFlash()
			select {
			case h.say <- *ev.Ticket:
			default: // the speaker is far behind; the screen still shows it
			}
		}
	}
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

// startFlash flashes the newest row for a few seconds, ending highlighted.
func (h *Hall) startFlash() {
	if h.flash != nil {
		h.flash.Stop()
	}
	bg, pal := h.rows[0].bg, h.pal
	h.flash = fyne.NewAnimation(4*time.Second, func(p float32) {
		bg.FillColor = pal.hot
		if p < 1 && int(p*16)%2 == 1 {
			bg.FillColor = pal.num
		}
		bg.Refresh()
	})
	h.flash.Curve = fyne.AnimationLinear
	h.flash.Start()
}

// applyLook takes the branch's colours and logo: new colours draw the
// screen again, in the state it shows.
func (h *Hall) applyLook(st model.Settings, logo []byte) {
	h.logoData = logo
	if pal := hallPalette(st.Look); pal != h.pal {
		h.pal = pal
		if h.flash != nil {
			h.flash.Stop()
		}
		h.notice.stop()
		h.sc = scaler{}
		h.build()
		h.w.SetContent(h.content)
		h.show(h.last)
	}
	h.logo.set(logo)
	h.header.Refresh()
}

func (h *Hall) link(up bool) {
	h.down = !up
	h.showStatus()
	h.header.Refresh()
}

// showStatus puts what staff must know in the header: the lost link first,
// else a voice fault (no engine, engine failing), so a silent hall is seen.
func (h *Hall) showStatus() {
	switch f := h.ann.Fault(); {
	case h.down:
		setText(h.linkT, tr("common.reconnecting"))
	case f != "":
		setText(h.linkT, f)
	default:
		setText(h.linkT, "")
	}
}

func (h *Hall) showClock() {
	now := h.clock.now()
	setText(h.date, now.Format("2006-01-02")+"  "+tr("weekday."+now.Weekday().String()))
	setText(h.clockT, now.Format("15:04:05"))
	h.showStatus()     // a voice fault comes and goes between calls
	h.header.Refresh() // the digits' width changes
}

// tick keeps the clock running on server time.
func (h *Hall) tick(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			onUI(func() { h.notice.stop() }) // the notice of the build on screen
			return
		case <-t.C:
			onUI(h.showClock)
		}
	}
}

// announce speaks the calls one after another, off the UI goroutine.
func (h *Hall) announce(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case t := <-h.say:
			h.ann.Announce(t)
		}
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
