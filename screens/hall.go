package screens

import (
	"context"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/layout"

	"jiaohao/model"
)

// HallOptions are what a PC's own setup says of its hall screen.
type HallOptions struct {
	// Layout is the PC's own choice; "" follows the branch's hall_layout.
	Layout model.HallLayout
	// Media is the folder of still images the split layouts show in turn;
	// "" shows none.
	Media string
	// Area is the name of the waiting area the hall shows and announces
	// (its services' calls, waiting counts and passed numbers); "" is
	// every area.
	Area string
}

// Hall is the wall display (frmScreen): a header with the branch, date
// and server clock, the notice, and a body in the layout the PC or the
// branch chose (HallOptions.Layout, model.HallLayout): the calls list,
// the window tiles, or either beside the media area. A new call flashes
// its row or tile and stays highlighted until the next one. Each call is
// announced once, in order, by the Announcer.
type Hall struct {
	base
	ann  Announcer
	opt  HallOptions
	say  chan model.Ticket
	down bool // the link to the queue is lost
	// areaFault says the PC's area is not one of the branch's (renamed,
	// deleted): the hall then shows every area rather than nothing.
	areaFault string

	w        fyne.Window
	pal      palette      // the branch's colours, or the hall's own
	logoData []byte       // the branch logo, nil: none
	logo     *logoView    // in the header
	last     model.Change // the state on screen, to draw again in new colours

	sc                          scaler
	branch, date, clockT, linkT *canvas.Text
	header                      *fyne.Container
	notice                      *marquee
	frame                       *fyne.Container
	content                     fyne.CanvasObject

	layout model.HallLayout // shown now
	list   *hallList        // built when first shown
	tiles  *hallTiles
	media  *hallMedia
	// hot is the newest call: its row or tile stays highlighted. lit is
	// that row's or tile's background as the last show left it (nil: none
	// lit), which a running flash may still paint.
	hot   model.Ticket
	lit   *canvas.Rectangle
	flash *fyne.Animation
	// screen is the hall's size at its last layout: rows and lines are
	// sized from it. picture is the media's image now, decoded (UI
	// goroutine); lastPic the same as the goroutine that turns them knows
	// it, and badPics the files it found no picture in.
	screen           fyne.Size
	picture, lastPic shownPicture
	badPics          map[string]bool
}

// NewHall builds the hall screen in w in the branch's layout and follows
// the store until ctx ends; ann speaks each call (nil: log only).
func NewHall(ctx context.Context, w fyne.Window, st model.Store, ann Announcer) *Hall {
	return NewHallWith(ctx, w, st, ann, HallOptions{})
}

// NewHallWith is NewHall with the PC's own options.
func NewHallWith(ctx context.Context, w fyne.Window, st model.Store, ann Announcer, opt HallOptions) *Hall {
	if ann == nil {
		ann = LogAnnouncer{}
	}
	h := &Hall{ann: ann, opt: opt, say: make(chan model.Ticket, 64), badPics: map[string]bool{}, w: w, pal: hallPalette(model.Look{})}
	h.build()
	w.SetPadded(false)
	w.SetContent(h.content)
	h.start(ctx, st, h)
	h.wg.Go(func() { h.announce(ctx) })
	h.wg.Go(func() { h.tick(ctx) })
	h.wg.Go(func() { h.turnPictures(ctx) })
	return h
}

// Content is the hall's root object.
func (h *Hall) Content() fyne.CanvasObject { return h.content }

// Layout is the layout the hall shows now.
func (h *Hall) Layout() model.HallLayout { return h.layout }

func (h *Hall) build() {
	var bb, db, cb, lb *fyne.Container
	pal := h.pal
	h.branch, bb = fitText(fyne.TextAlignLeading, 0.8, pal.text)
	h.date, db = fitText(fyne.TextAlignTrailing, 0.6, pal.sub)
	h.clockT, cb = fitText(fyne.TextAlignTrailing, 0.8, pal.text)
	h.linkT, lb = fitText(fyne.TextAlignCenter, 0.6, pal.warn)
	h.logo = newLogoView(h.branch)
	h.logo.set(h.logoData)
	// The logo's share is taken from the branch name's only when there is one.
	// A gap between the date and the clock: in portrait the date fills
	// its share, and the two would read as one string.
	h.header = withLayout(shares{parts: []float32{8, 34, 26, 24, 2, 16}}, h.logo.box, bb, lb, db, layout.NewSpacer(), cb)
	// The notice is sized by the frame from the display's shorter side,
	// like everything else on the hall, not by the scaler's height.
	h.notice = newMarquee(&scaler{}, 40, pal.num)
	h.frame = withLayout(&hallFrame{h}, h.header, canvas.NewRectangle(pal.bg), h.notice.box)
	h.content = withLayout(&h.sc, canvas.NewRectangle(pal.bg), h.frame)
	h.setLayout(model.HallList)
	h.showClock()
}

// setLayout puts layout's body in the frame; each body is built once.
func (h *Hall) setLayout(l model.HallLayout) {
	if l == h.layout {
		return
	}
	h.layout = l
	var main fyne.CanvasObject
	if l.Tiles() {
		if h.tiles == nil {
			h.tiles = newHallTiles(h.pal)
		}
		main = h.tiles.box
	} else {
		if h.list == nil {
			h.list = newHallList(&h.screen, h.pal)
		}
		main = h.list.box
	}
	body := main
	if l.Split() {
		if h.media == nil {
			h.media = newHallMedia(h)
		}
		body = withLayout(&splitLayout{}, main, h.media.box)
	}
	h.frame.Objects[1] = body
	h.frame.Refresh()
}

// show takes a new live state on the UI goroutine.
func (h *Hall) show(u model.Change) {
	s := u.Snapshot
	h.last = model.Change{Snapshot: s}
	if u.Reloaded {
		h.loadLook(h.applyLook) // a configuration change always reloads
	}
	h.setLayout(h.opt.Layout.Or(s.HallLayout).Or(model.HallList))
	area := h.area(s)
	title := s.Branch
	if area != 0 { // the hall of one area says which, beside the branch
		title += " · " + strings.TrimSpace(h.opt.Area)
	}
	setText(h.branch, title)
	if u.Reloaded {
		h.showClock() // the branch's zone may have come with it
	}
	full := s
	s = s.InArea(area)
	called := false
	for _, ev := range u.Events {
		if model.IsCall(ev) {
			t, ok := callFor(full, area, *ev.Ticket)
			if !ok {
				continue // another area's call: its own hall says it
			}
			h.hot, called = t, true
			select {
			case h.say <- t:
			default: // the speaker is far behind; the screen still shows it
			}
		}
	}
	if u.Reloaded || h.hot.ID == 0 {
		// No call seen yet, or calls missed while away: the newest call
		// in progress is the one to highlight.
		if now := inProgress(s); len(now) > 0 {
			h.hot = now[0]
		}
	}
	// The split layouts show the notice in their media area instead.
	notice := s.Notice
	if h.layout.Split() {
		notice = ""
		h.media.show(s, h.logoData)
	}
	h.notice.set(notice)
	h.notice.box.Hidden = notice == ""
	var hot *canvas.Rectangle
	if h.layout.Tiles() {
		hot = h.tiles.show(s, h.hot.Window)
	} else {
		hot = h.list.show(s)
	}
	h.lit = hot
	// Rows and lines show and hide: lay the screen out again.
	h.frame.Refresh()
	if called && hot != nil {
		h.startFlash(hot)
	}
}

// applyLook takes the branch's colours and logo. New colours build the
// screen again and draw the state it shows in them; a new logo only
// replaces the picture.
func (h *Hall) applyLook(st model.Settings, logo []byte) {
	h.logoData = logo
	if pal := hallPalette(st.Look); pal != h.pal {
		h.pal = pal
		if h.flash != nil {
			h.flash.Stop()
		}
		h.notice.stop()
		h.sc = scaler{}
		h.list, h.tiles, h.media, h.layout = nil, nil, nil, ""
		h.build()
		h.w.SetContent(h.content)
		h.show(h.last)
	}
	h.logo.set(logo)
	if h.media != nil {
		h.media.drawLogo(logo)
	}
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
	case h.areaFault != "":
		setText(h.linkT, h.areaFault)
	default:
		setText(h.linkT, "")
	}
}

func (h *Hall) showClock() {
	now := h.clock.now()
	setText(h.date, now.Format("2006-01-02")+"  "+tr("weekday."+now.Weekday().String()))
	setText(h.clockT, now.Format("15:04:05"))
	if h.media != nil {
		h.media.showClock(now)
	}
	h.showStatus()     // a voice fault comes and goes between calls
	h.header.Refresh() // the digits' width changes
}

// tick keeps the clock running on server time.
func (h *Hall) tick(ctx context.Context) {
	every(ctx, time.Second, h.showClock, func() { h.notice.stop() }) // the notice of the build on screen
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
