package screens

import (
	"context"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// Kiosk is the touch screen where customers take a number: one tile per
// enabled service with its queue and estimated wait, an optional VIP
// entry, and after a tap the number in large type for a few seconds while
// the ticket prints. It takes no number when the queue is unreachable or
// outside business hours: numbers come only from the store.
type Kiosk struct {
	base
	printer PrintQueue
	// ShowFor is how long a new number stays on screen.
	ShowFor time.Duration

	snap     model.Snapshot
	settings model.Settings
	up       bool
	busy     bool
	vip      bool
	codes    []string // services the tiles show, to rebuild only on change
	hideAt   time.Time
	errMsg   string // why the last tap took no number, shown for ShowFor
	errUntil time.Time

	est   kioskEstimates
	ident kioskIdent // a registered customer's identification (kiosk_identify.go)

	pal           palette
	logo          *logoView
	notice        *marquee
	bg, overlayBg *canvas.Rectangle
	title         *canvas.Text

	sc                                   scaler
	tilesMark                            int
	tiles                                *fyne.Container
	tileBtn                              []*widget.Button
	tileInfo                             []*canvas.Text
	branch, clockT, state                *canvas.Text
	vipBtn                               *widget.Button // the VIP tile's
	vipT                                 *vipTile
	header, stateBox                     *fyne.Container
	overlay                              *fyne.Container
	number, ahead, eta, printing, vipTag *canvas.Text
	area                                 *canvas.Text // where to wait, when the branch has several areas
	content                              fyne.CanvasObject
}

// NewKiosk builds the kiosk in w and follows the store until ctx ends;
// each ticket taken goes to printer exactly once.
func NewKiosk(ctx context.Context, w fyne.Window, st model.Store, printer PrintQueue) *Kiosk {
	if printer == nil {
		printer = LogPrinter{}
	}
	k := &Kiosk{printer: printer, ShowFor: 8 * time.Second, up: true, settings: model.ParseSettings(nil), pal: kioskPalette(model.Look{})}
	k.build()
	k.hookKeys(w)
	w.SetPadded(false)
	w.SetContent(k.content)
	k.startEstimates(ctx, st)
	k.start(ctx, st, k)
	k.wg.Go(func() { k.tick(ctx) })
	return k
}

// Content is the kiosk's root object.
func (k *Kiosk) Content() fyne.CanvasObject { return k.content }

func (k *Kiosk) build() {
	sc := &k.sc
	sc.short = true // a portrait kiosk is as wide as a landscape one is tall
	k.branch = canvas.NewText("", k.pal.text)
	k.branch.TextStyle.Bold = true
	branch := sc.fit(k.branch, 48)
	k.clockT = sc.add(canvas.NewText("", k.pal.text), 40)
	k.title = bigText(tr("kiosk.choose"), 40, k.pal.text)
	k.title.TextStyle.Bold = false
	k.state = canvas.NewText("", k.pal.warn)
	k.state.Alignment = fyne.TextAlignCenter
	k.stateBox = sc.fit(k.state, 44)
	k.vipT = newVIPTile(sc, k.toggleVIP)
	k.vipT.set(false, false)
	k.vipBtn = k.vipT.btn
	k.logo = newLogoView(k.branch)
	k.header = withLayout(headerRow{sc: sc, branch: k.branch, title: k.title, logo: k.logo, size: 48, tsize: 40},
		branch, sc.fit(k.title, 40), k.clockT, k.logo.box)
	footer := k.stateBox
	k.buildIdent()
	k.tilesMark = sc.mark()
	k.tiles = withLayout(kioskGrid{})

	k.vipTag, k.number = bigText("", 40, k.pal.warn), bigText("", 220, k.pal.num)
	k.ahead, k.eta, k.printing = bigText("", 52, k.pal.sub), bigText("", 44, k.pal.sub), bigText("", 40, k.pal.ok)
	k.area = bigText("", 48, k.pal.text)
	// the button's label is a text of the scaler, read with the number
	doneT := bigText(tr("kiosk.done"), 40, colBrand)
	done := withLayout(touchSized{w: 4, h: 1.5, sc: sc}, widget.NewButton("", func() { k.hideTicket() }), sc.fit(doneT, 40))
	card := middle(sc.fit(k.vipTag, 40), sc.fit(k.number, 220), sc.fit(k.area, 48), sc.fit(k.ahead, 52), sc.fit(k.eta, 44),
		sc.fit(k.printing, 40), container.NewCenter(done))
	k.overlayBg = canvas.NewRectangle(k.pal.bg)
	k.overlay = container.NewStack(k.overlayBg, container.NewPadded(card))
	k.overlay.Hide()

	// The branch's notice runs along the bottom, as on the hall, while it has one.
	k.notice = newMarquee(sc, 36, k.pal.text)
	k.notice.box.Hide()
	bottom := container.NewVBox(container.NewPadded(footer), k.notice.box)
	main := container.NewBorder(container.NewPadded(k.header), bottom, nil, nil, container.NewPadded(k.tiles))
	k.bg = canvas.NewRectangle(k.pal.bg)
	k.content = withLayout(sc, k.bg, main, k.ident.panel, k.overlay)
	k.showClock()
}

// show takes a new live state on the UI goroutine.
func (k *Kiosk) show(u model.Change) {
	k.snap = u.Snapshot
	if u.Reloaded {
		k.loadSettings()
	}
	if k.branch.Text != u.Snapshot.Branch {
		setText(k.branch, u.Snapshot.Branch)
		k.header.Refresh() // refit the name beside the title
	}
	if k.notice.set(u.Snapshot.Notice); (u.Snapshot.Notice == "") != k.notice.box.Hidden {
		k.notice.box.Hidden = u.Snapshot.Notice == ""
		k.content.Refresh()
	}
	k.askEstimates()
	k.refresh()
}

func (k *Kiosk) link(up bool) {
	k.up = up
	k.refresh()
}

// loadSettings fetches VIP, business hours and the branch's look after
// each snapshot (a configuration change always causes one).
func (k *Kiosk) loadSettings() {
	k.loadLook(func(st model.Settings, logo []byte) {
		k.settings = st
		k.applyLook(kioskPalette(st.Look))
		k.logo.set(logo)
		k.refresh()
		k.header.Refresh()
	})
}

// applyLook paints the kiosk's own surfaces in pal: the background, the
// header and the number shown after a tap.
func (k *Kiosk) applyLook(pal palette) {
	if pal == k.pal {
		return
	}
	k.pal = pal
	k.bg.FillColor, k.overlayBg.FillColor = pal.bg, pal.bg
	k.branch.Color, k.clockT.Color, k.title.Color = pal.text, pal.text, pal.text
	k.number.Color, k.area.Color = pal.num, pal.text
	k.area.Refresh()
	k.ahead.Color, k.eta.Color, k.notice.text.Color, k.state.Color, k.vipTag.Color = pal.sub, pal.sub, pal.text, pal.warn, pal.warn
	for _, o := range []fyne.CanvasObject{k.bg, k.overlayBg, k.branch, k.clockT, k.title, k.number, k.ahead, k.eta, k.notice.text, k.state, k.vipTag} {
		o.Refresh()
	}
}

// open reports whether numbers may be taken now, and if not, why.
func (k *Kiosk) open() (bool, string) {
	switch {
	case !k.up:
		return false, tr("kiosk.paused")
	case !k.settings.InBusinessHours(k.clock.now()):
		return false, tr("kiosk.closed", kv("Hours", k.settings.Raw["business_hours"]))
	}
	return true, ""
}

func (k *Kiosk) refresh() {
	ok, why := k.open()
	if ok && time.Now().Before(k.errUntil) {
		why = k.errMsg
	}
	if k.state.Text != why {
		setText(k.state, why)
		k.stateBox.Refresh() // refit the sentence to the width
	}
	enabledSvc := k.enabledServices()
	var codes []string
	for _, s := range enabledSvc {
		codes = append(codes, s.Code)
	}
	if !slices.Equal(codes, k.codes) {
		k.codes = codes
		k.rebuildTiles(enabledSvc)
	}
	refit := false
	for i, s := range enabledSvc {
		if w := k.waitText(s); w != k.tileInfo[i].Text {
			setText(k.tileInfo[i], w)
			refit = true
		}
		enable(k.tileBtn[i], ok && !k.busy)
	}
	if refit {
		k.tiles.Refresh() // each wait line fits its tile
	}
	k.setIdent(k.settings.CustomerIdent)
	enable(k.ident.tile.btn, ok && !k.busy)
	showVIP := k.settings.VIPEnabled && ok
	if !showVIP {
		k.vip = false
	}
	if k.vipT.set(showVIP, k.vip) {
		k.content.Refresh()
	}
}

func (k *Kiosk) enabledServices() []model.ServiceCount {
	var out []model.ServiceCount
	for _, s := range k.snap.Services {
		if s.Enabled {
			out = append(out, s)
		}
	}
	return out
}

func (k *Kiosk) rebuildTiles(svc []model.ServiceCount) {
	k.sc.truncate(k.tilesMark)
	k.tiles.RemoveAll()
	k.tileBtn, k.tileInfo = nil, nil
	for _, s := range svc {
		code := s.Code
		btn := widget.NewButton("", func() { k.take(code) })
		name, info := bigText(s.Name, 64, colBrand), bigText("", 36, colHallRow)
		prefix := k.sc.add(bigText(s.Code, 40, colDim), 40)
		prefix.Alignment = fyne.TextAlignLeading
		k.tileBtn, k.tileInfo = append(k.tileBtn, btn), append(k.tileInfo, info)
		k.tiles.Add(container.NewStack(btn, container.NewPadded(container.NewVBox(prefix)), withLayout(besides{prefix}, middle(k.sc.fit(name, 64), k.sc.fit(info, 36)))))
	}
	k.tiles.Add(k.vipT.box) // a tile like the services, last
	k.tiles.Add(k.ident.tile.box)
	k.content.Refresh()
}

func (k *Kiosk) toggleVIP() {
	k.vip = !k.vip
	k.refresh()
}

func (k *Kiosk) showClock() {
	if s := k.clock.now().Format("15:04"); s != k.clockT.Text {
		setText(k.clockT, s)
		k.header.Refresh()
	}
}

// tick keeps the clock and the business hours current, and takes a
// shown number away after ShowFor.
func (k *Kiosk) tick(ctx context.Context) {
	every(ctx, time.Second, func() {
		k.showClock()
		if !k.hideAt.IsZero() && time.Now().After(k.hideAt) {
			k.hideTicket()
		}
		k.identTick()
		k.refresh()
	}, func() { k.notice.stop() })
}
