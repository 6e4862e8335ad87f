package screens

import (
	"context"
	"fmt"
	"image/color"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// Evaluator is the rating pad (评价器): a small touch screen at one window,
// facing the customer. Idle, it shows the clerk's card (name, staff number
// and, where the branch wants, today's stars). When its window finishes a
// ticket it asks that customer to rate the service with four big buttons,
// reason chips and a short comment; after a rating, or when the time to
// rate has passed, it thanks or simply returns to the card. It follows
// the live events like the window screen, and rates through the store's
// Ratings, which say no to a second or late rating.
type Evaluator struct {
	base
	window int
	rs     model.Ratings // nil: the store keeps no ratings, the pad only shows the card
	w      fyne.Window
	pal    palette

	// What it is doing, on the UI goroutine: asking holds the ticket being
	// rated (nil: idle or thanking); turn counts the switches, so a timer
	// of an earlier one does nothing.
	asking   *model.Ticket
	thanking bool
	turn     int
	tags     []string // the chips chosen for this ticket
	sending  bool

	// The branch's settings: how long a customer may rate (the pad waits
	// that long, from the finish it saw) and whether the card shows stars.
	// timeout and thanksFor are fields so the tests can shorten them.
	timeout   time.Duration
	thanksFor time.Duration
	stars     bool
	settings  int // the settings reads applied
	ws        model.WindowState
	// seen is the version of the last state shown (shown: there was
	// one): a reload after it brings no events, so the pad reads those it
	// missed (catchUp).
	seen  int64
	shown bool

	bg                            *canvas.Rectangle
	idle, ask, thanks             *fyne.Container
	winName, clerkName, clerkNo   *canvas.Text
	starsT, hint, prompt, thanksT *canvas.Text
	msg                           *canvas.Text
	scoreBtn                      map[model.Score]*widget.Button
	tagBtn                        map[string]*widget.Button
	tagBg                         map[string]*canvas.Rectangle
	comment                       *widget.Entry
	content                       fyne.CanvasObject
}

// NewEvaluator builds window's rating pad in w and follows the store until
// ctx ends.
func NewEvaluator(ctx context.Context, w fyne.Window, st model.Store, window int) *Evaluator {
	e := &Evaluator{window: window, w: w, pal: hallPalette(model.Look{}), timeout: model.DefaultRatingWindow,
		thanksFor: 4 * time.Second, stars: true}
	e.rs, _ = st.(model.Ratings)
	e.build()
	w.SetPadded(false)
	w.SetContent(e.content)
	e.start(ctx, st, e)
	return e
}

// Content is the screen's root object.
func (e *Evaluator) Content() fyne.CanvasObject { return e.content }

// Asking reports the ticket the pad is asking about, 0 while it is not.
func (e *Evaluator) Asking() int64 {
	if e.asking == nil {
		return 0
	}
	return e.asking.ID
}

func (e *Evaluator) build() {
	var b [8]*fyne.Container
	e.winName, b[0] = fitText(fyne.TextAlignCenter, 0.7, e.pal.sub)
	e.clerkName, b[1] = fitText(fyne.TextAlignCenter, 0.8, e.pal.num)
	e.clerkName.TextStyle.Bold = true
	e.clerkNo, b[2] = fitText(fyne.TextAlignCenter, 0.7, e.pal.text)
	e.starsT, b[3] = fitText(fyne.TextAlignCenter, 0.7, e.pal.num)
	e.hint, b[4] = fitText(fyne.TextAlignCenter, 0.6, e.pal.sub)
	e.idle = withLayout(shares{down: true, parts: []float32{14, 34, 18, 18, 16}}, b[0], b[1], b[2], b[3], b[4])

	e.prompt, b[5] = fitText(fyne.TextAlignCenter, 0.75, e.pal.text)
	e.msg, b[6] = fitText(fyne.TextAlignCenter, 0.7, e.pal.warn)
	e.scoreBtn = map[model.Score]*widget.Button{}
	var scores []fyne.CanvasObject
	for _, s := range model.Scores {
		// The theme's primary buttons whatever the branch's look, so their
		// words are in the theme's colour on them.
		btn, tile := e.tile(tr(s.Label()), theme.Color(theme.ColorNameForegroundOnPrimary), func() { e.rate(s) })
		btn.Importance = widget.HighImportance
		e.scoreBtn[s] = btn
		scores = append(scores, tile)
	}
	e.tagBtn, e.tagBg = map[string]*widget.Button{}, map[string]*canvas.Rectangle{}
	var chips []fyne.CanvasObject
	for _, tag := range model.RatingTags {
		// A chip is an outlined box on the pad's background, filled
		// while chosen; its button only takes the tap.
		btn, tile := e.tile(tr("rating.tag."+tag), e.pal.text, func() { e.toggle(tag) })
		btn.Importance = widget.LowImportance
		bg := canvas.NewRectangle(e.pal.row)
		bg.StrokeColor, bg.StrokeWidth, bg.CornerRadius = e.pal.sub, 2, 8
		e.tagBtn[tag], e.tagBg[tag] = btn, bg
		chips = append(chips, container.NewStack(bg, tile))
	}
	e.comment = widget.NewEntry()
	e.comment.SetPlaceHolder(tr("evaluator.comment", kv("N", model.MaxRatingComment)))
	e.comment.Validator = func(s string) error { _, err := (model.RatingInput{Score: 1, Comment: s}).Check(); return err }
	e.ask = withLayout(shares{down: true, parts: []float32{13, 24, 11, 44, 8}},
		b[5], container.NewGridWithColumns(4, chips...), e.comment, container.NewGridWithColumns(2, scores...), b[6])

	e.thanksT, b[7] = fitText(fyne.TextAlignCenter, 0.7, e.pal.num)
	e.thanks = container.NewStack(b[7])
	e.bg = canvas.NewRectangle(e.pal.bg)
	e.content = container.NewStack(e.bg, withLayout(inset{0.03}, container.NewStack(e.idle, e.ask, e.thanks)))
	setText(e.winName, tr("counter.window", kv("N", e.window)))
	setText(e.hint, tr("evaluator.hint"))
	setText(e.thanksT, tr("evaluator.thanks"))
	e.showMode()
}

// tile is a touch button with its label in a fitting box over it, so the
// words grow with the pad like the kiosk's tiles.
func (e *Evaluator) tile(label string, c color.Color, tap func()) (*widget.Button, fyne.CanvasObject) {
	btn := widget.NewButton("", tap)
	t, box := fitText(fyne.TextAlignCenter, 0.5, c)
	setText(t, label)
	return btn, container.NewStack(btn, withLayout(inset{0.08}, box))
}

// showMode shows the card, the question or the thanks.
func (e *Evaluator) showMode() {
	show := func(c *fyne.Container, on bool) {
		if on {
			c.Show()
		} else {
			c.Hide()
		}
	}
	show(e.ask, e.asking != nil)
	show(e.thanks, e.thanking)
	show(e.idle, e.asking == nil && !e.thanking)
}

// show takes a new live state on the UI goroutine: the card follows the
// window's clerk, a finish here asks its customer, and a rating of the
// ticket asked about made elsewhere (the customer's phone) ends the
// question.
func (e *Evaluator) show(u model.Change) {
	if u.Reloaded {
		e.loadLook(e.applySettings)
		if e.shown {
			e.catchUp(e.seen, u.Snapshot.Now)
		}
	}
	e.seen, e.shown = u.Snapshot.Version, true
	if ws, ok := findWindow(u.Snapshot, e.window); ok {
		e.ws = ws
	}
	e.showCard()
	restar := u.Reloaded
	for _, ev := range u.Events {
		switch {
		case ev.Kind == model.EvFinish && ev.Ticket != nil && ev.Ticket.Window == e.window:
			e.startAsking(*ev.Ticket)
		case ev.Kind == model.EvRate && ev.Window == e.window:
			restar = true
			if e.asking != nil && ev.TicketID == e.asking.ID {
				e.startThanks()
			}
		case (ev.Kind == model.EvSignIn || ev.Kind == model.EvSignOut) && ev.Window == e.window:
			restar = true
		}
	}
	if restar {
		e.loadStars()
	}
}

// applySettings takes the branch's rating window, stars choice and
// colours: in new colours the pad is built again, in the state it shows.
func (e *Evaluator) applySettings(st model.Settings, _ []byte) {
	e.timeout, e.stars = st.RatingWindow, st.EvaluatorStars
	e.settings++
	if pal := hallPalette(st.Look); pal != e.pal {
		e.pal = pal
		comment, hint, msg := e.comment.Text, e.hint.Text, e.msg.Text
		e.build()
		e.w.SetContent(e.content)
		e.showCard()
		e.comment.SetText(comment)
		setText(e.hint, hint)
		setText(e.msg, msg)
		for _, tag := range e.tags {
			e.chip(tag, true)
		}
		if e.asking != nil {
			setText(e.prompt, tr("evaluator.prompt", kv("Number", e.asking.Number)))
		}
		for _, b := range e.scoreBtn {
			enable(b, !e.sending)
		}
	}
	e.loadStars()
}

func (e *Evaluator) showCard() {
	c := e.ws.Clerk
	if e.ws.Number != 0 {
		setText(e.winName, windowName(e.ws.Window))
	}
	if c == nil {
		setText(e.clerkName, tr("evaluator.welcome"))
		setText(e.clerkNo, "")
		setText(e.starsT, "")
		return
	}
	setText(e.clerkName, c.Name)
	setText(e.clerkNo, tr("evaluator.number", kv("Number", c.Number)))
}

// loadStars reads today's count of the clerk at the window, when the
// branch shows stars and a clerk is there.
func (e *Evaluator) loadStars() {
	if !e.stars || e.rs == nil || e.ws.Clerk == nil {
		setText(e.starsT, "")
		return
	}
	var m model.Satisfaction
	e.async(func(ctx context.Context) (err error) {
		m, err = e.rs.SatisfactionToday(ctx, e.window)
		return err
	}, func(err error) {
		if err == nil && e.stars && e.ws.Clerk != nil {
			setText(e.starsT, starsText(m))
		}
	})
}

// starsText is today's average as stars out of four (the levels), with
// the figure and the count; nothing before the first rating.
func starsText(m model.Satisfaction) string {
	avg, ok := m.Average()
	if !ok {
		return ""
	}
	full := int(avg + 0.5)
	stars := strings.Repeat("★", full) + strings.Repeat("☆", 4-full)
	return tr("evaluator.stars", kv("Stars", stars, "Avg", fmt.Sprintf("%.1f", avg), "N", m.Count()))
}

// startAsking switches to the rating buttons for t, for the rating
// window: the pad saw the finish as it happened, so it waits that long
// from now, and the store still refuses a rating that comes too late.
func (e *Evaluator) startAsking(t model.Ticket) { e.askFor(t, e.timeout) }

// askFor asks t's customer for d.
func (e *Evaluator) askFor(t model.Ticket, d time.Duration) {
	if e.rs == nil {
		return
	}
	e.turn++
	e.asking, e.thanking, e.tags, e.sending = &t, false, nil, false
	for tag := range e.tagBg {
		e.chip(tag, false)
	}
	for _, b := range e.scoreBtn {
		b.Enable()
	}
	e.comment.SetText("")
	setText(e.prompt, tr("evaluator.prompt", kv("Number", t.Number)))
	setText(e.msg, "")
	e.showMode()
	e.after(d, e.turn, e.toIdle)
}

// after runs f on the UI goroutine once d has passed, unless the pad has
// switched since (turn) or the screen ends.
func (e *Evaluator) after(d time.Duration, turn int, f func()) {
	e.wg.Go(func() {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-e.ctx.Done():
		case <-t.C:
			onUI(func() {
				if e.turn == turn {
					f()
				}
			})
		}
	})
}

func (e *Evaluator) toggle(tag string) {
	if e.asking == nil || e.sending {
		return
	}
	i := slices.Index(e.tags, tag)
	if i >= 0 {
		e.tags = slices.Delete(e.tags, i, i+1)
	} else {
		e.tags = append(e.tags, tag)
	}
	e.chip(tag, i < 0)
}

// chip shows a reason chip chosen or not.
func (e *Evaluator) chip(tag string, on bool) {
	bg := e.tagBg[tag]
	bg.FillColor = e.pal.row
	if on {
		bg.FillColor = e.pal.hot
	}
	bg.Refresh()
}

// Chosen reports whether the reason chip tag is chosen.
func (e *Evaluator) Chosen(tag string) bool { return slices.Contains(e.tags, tag) }

// rate sends the customer's level with the chosen chips and comment.
func (e *Evaluator) rate(s model.Score) {
	if e.asking == nil || e.sending {
		return
	}
	in, err := model.RatingInput{Score: s, Tags: slices.Clone(e.tags), Comment: e.comment.Text}.Check()
	if err != nil {
		setText(e.msg, model.ErrorMessage(err))
		return
	}
	e.sending = true
	for _, b := range e.scoreBtn {
		b.Disable()
	}
	id, turn := e.asking.ID, e.turn
	e.async(func(ctx context.Context) error {
		_, err := e.rs.Rate(ctx, id, e.window, in)
		return err
	}, func(err error) {
		if e.turn != turn {
			return
		}
		e.sending = false
		switch {
		case err == nil, model.IsCode(err, model.EAlreadyRated): // rated: here, or on the customer's phone
			e.startThanks()
		case model.IsCode(err, model.ERatingExpired), model.IsCode(err, model.ETicketNotDone):
			e.toIdle()
		default:
			setText(e.msg, model.ErrorMessage(err))
			for _, b := range e.scoreBtn {
				b.Enable()
			}
		}
	})
}

func (e *Evaluator) startThanks() {
	e.turn++
	e.asking, e.thanking = nil, true
	e.showMode()
	e.after(e.thanksFor, e.turn, e.toIdle)
}

func (e *Evaluator) toIdle() {
	e.turn++
	e.asking, e.thanking = nil, false
	e.showMode()
}

// link says on the card and the question that the link is down.
func (e *Evaluator) link(up bool) {
	hint, msg := tr("evaluator.hint"), ""
	if !up {
		hint, msg = tr("common.reconnecting"), tr("common.reconnecting")
	}
	setText(e.hint, hint)
	setText(e.msg, msg)
}
