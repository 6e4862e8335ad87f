package screens

import (
	"context"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// Identification of a registered customer at the kiosk (客户识别, when the
// branch turns customer_ident on): the customer taps the tile and types a
// card, ID or phone number on the keypad, or scans a card with a
// keyboard-wedge reader, which types the digits and Enter in a burst. No
// entry widget takes the keys: the kiosk's canvas does, so a scan works
// whatever the screen shows. The next service tapped takes a number for
// the customer at the level's priority (or in the level's own service at
// once); the screen shows the level and a masked name, never the number
// typed, of which only the last 4 digits are shown while typing.

const (
	maxKeyLen = 19 // the longest card number
	// identFor is how long an identified customer stays chosen, and a
	// half-typed number waits, before the kiosk forgets them for the next.
	identFor = 45 * time.Second
	// wedgeGap is the longest pause inside one scan: a reader types a
	// number's keys milliseconds apart, so keys after a longer pause
	// start a new number.
	wedgeGap = time.Second
)

type kioskIdent struct {
	on      bool // the branch offers it and the store can
	keys    []byte
	touched time.Time
	who     *model.CustomerMatch
	busy    bool
	wedgeAt time.Time // the last key a reader typed
	// spoiled says the number typed cannot be right (longer than any
	// card, or a letter in it): Enter refuses it rather than look up what
	// is left, which could be someone else's number.
	spoiled bool
	// gen counts the panel's closings: an answer to a lookup the customer
	// cancelled, or that timed out, identifies nobody.
	gen int

	tile          *vipTile // a tile like the VIP entry, beside it
	panel         *fyne.Container
	typed, answer *canvas.Text
	keypad        []*widget.Button // 1-9, X, 0, back
	ok, cancel    *widget.Button
}

// buildIdent makes the tile and the panel; the panel is one more layer of
// the kiosk's content, hidden.
func (k *Kiosk) buildIdent() {
	id := &k.ident
	id.tile = newVIPTile(&k.sc, k.openIdent)
	id.tile.name.Text, id.tile.hint.Text = tr("kiosk.ident"), tr("kiosk.ident_hint")
	id.tile.btn.Hidden, id.tile.box.Hidden = true, true
	prompt := bigText(tr("kiosk.ident_prompt"), 44, k.pal.text)
	id.typed, id.answer = bigText("", 56, k.pal.num), bigText("", 40, k.pal.warn)
	grid := container.NewGridWithColumns(3)
	for _, r := range "123456789X0" {
		key := r
		b := widget.NewButton(string(r), func() { k.typeKey(key) })
		id.keypad = append(id.keypad, b)
		grid.Add(withLayout(touchSized{w: 1.5, h: 1.2, sc: &k.sc}, b))
	}
	back := widget.NewButton("⌫", k.backKey)
	id.keypad = append(id.keypad, back)
	grid.Add(withLayout(touchSized{w: 1.5, h: 1.2, sc: &k.sc}, back))
	id.ok = widget.NewButton(tr("kiosk.ident_ok"), k.submitKey)
	id.ok.Importance = widget.HighImportance
	id.cancel = widget.NewButton(tr("kiosk.ident_cancel"), k.closeIdent)
	row := container.NewGridWithColumns(2, withLayout(touchSized{w: 3, h: 1.2, sc: &k.sc}, id.cancel), withLayout(touchSized{w: 3, h: 1.2, sc: &k.sc}, id.ok))
	card := middle(k.sc.fit(prompt, 44), k.sc.fit(id.typed, 56), k.sc.fit(id.answer, 40), container.NewCenter(container.NewVBox(grid, row)))
	// The background takes the taps on the panel's blank parts, which
	// would otherwise reach the tiles under it and take a number.
	id.panel = container.NewStack(newTapSink(k.pal.bg), container.NewPadded(card))
	id.panel.Hide()
}

// setIdent turns the entry on or off with the branch's setting.
func (k *Kiosk) setIdent(on bool) {
	_, can := k.st.(model.CustomerDesk)
	on = on && can
	if on == k.ident.on {
		return
	}
	k.ident.on = on
	if !on {
		k.forget()
	}
	k.ident.tile.btn.Hidden, k.ident.tile.box.Hidden = !on, !on
	k.content.Refresh()
}

func (k *Kiosk) openIdent() {
	id := &k.ident
	id.keys, id.spoiled, id.who, id.touched = nil, false, nil, time.Now()
	setText(id.answer, "")
	k.showTyped()
	id.panel.Show()
	k.content.Refresh()
}

func (k *Kiosk) closeIdent() {
	k.ident.keys, k.ident.spoiled, k.ident.busy = nil, false, false
	k.ident.gen++
	k.ident.panel.Hide()
	k.content.Refresh()
}

// typeKey takes one key, from the keypad or a reader: a digit or an ID's
// X is typed, anything else, or a digit past the longest number, spoils
// the number; a scan while the tiles show opens the panel.
func (k *Kiosk) typeKey(r rune) {
	id := &k.ident
	if r == 'x' {
		r = 'X'
	}
	if id.busy {
		return
	}
	if ok, _ := k.open(); !ok {
		return
	}
	if k.overlay.Visible() {
		k.hideTicket() // the last customer's number gives way to the one scanning now
	}
	if !id.panel.Visible() {
		k.openIdent()
	}
	if (r >= '0' && r <= '9' || r == 'X') && len(id.keys) < maxKeyLen {
		id.keys = append(id.keys, byte(r))
	} else {
		id.spoiled = true
	}
	id.touched = time.Now()
	k.showTyped()
}

func (k *Kiosk) backKey() {
	if n := len(k.ident.keys); n > 0 && !k.ident.busy {
		k.ident.keys = k.ident.keys[:n-1]
		k.showTyped()
	}
}

// showTyped shows a dot per digit and the last 4, so a passer-by reads no
// number off the screen.
func (k *Kiosk) showTyped() {
	s := string(k.ident.keys)
	if n := len(s); n > 4 {
		s = strings.Repeat("•", n-4) + s[n-4:]
	}
	setText(k.ident.typed, s)
}

// submitKey asks the store who the number is; the number goes no further
// than that request and is dropped from memory with the answer.
func (k *Kiosk) submitKey() {
	id := &k.ident
	if id.busy || !id.panel.Visible() {
		return
	}
	if id.spoiled {
		id.keys, id.spoiled = nil, false
		k.showTyped()
		setText(id.answer, tr("kiosk.ident_unreadable"))
		return
	}
	if len(id.keys) == 0 {
		return
	}
	key, gen := string(id.keys), id.gen
	id.keys, id.busy = nil, true
	setText(id.answer, tr("kiosk.ident_looking"))
	desk, _ := k.st.(model.CustomerDesk)
	var m model.CustomerMatch
	k.async(func(ctx context.Context) error {
		var err error
		m, err = desk.IdentifyCustomer(ctx, key)
		return err
	}, func(err error) {
		if gen != id.gen {
			return // cancelled or forgotten while asked
		}
		id.busy = false
		if err != nil {
			k.showTyped()
			setText(id.answer, customerErrText(err))
			return
		}
		id.who, id.touched = &m, time.Now()
		k.closeIdent()
		if m.Service != "" && k.serviceShown(m.Service) {
			k.take(m.Service) // the level has its own queue: nothing to choose
			return
		}
		k.showWho()
	})
}

func (k *Kiosk) serviceShown(code string) bool {
	for _, s := range k.enabledServices() {
		if s.Code == code {
			return true
		}
	}
	return false
}

// showWho greets the identified customer in the title until they choose.
func (k *Kiosk) showWho() {
	t := tr("kiosk.choose")
	if w := k.ident.who; w != nil {
		t = tr("kiosk.ident_welcome", kv("Name", w.Masked, "Level", w.Level))
	}
	if k.title.Text != t {
		setText(k.title, t)
		k.header.Refresh()
	}
}

// forget drops the identified customer (taken, timed out, turned off).
func (k *Kiosk) forget() {
	k.ident.who, k.ident.keys, k.ident.spoiled, k.ident.busy = nil, nil, false, false
	k.ident.gen++
	k.ident.panel.Hide()
	k.showWho()
}

// identTick forgets a customer who chose nothing and a number left half
// typed.
func (k *Kiosk) identTick() {
	id := &k.ident
	if (id.who != nil || id.panel.Visible()) && !id.busy && time.Since(id.touched) > identFor {
		k.forget()
		k.content.Refresh()
	}
}
