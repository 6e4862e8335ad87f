package screens

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/screens/offscreen"
)

// slowDesk holds each identification until release is closed, so a test
// can act while the kiosk waits for the answer.
type slowDesk struct {
	*sqlstore.GormStore
	release, answered chan struct{}
}

func (d slowDesk) IdentifyCustomer(ctx context.Context, key string) (model.CustomerMatch, error) {
	defer close(d.answered)
	<-d.release
	return d.GormStore.IdentifyCustomer(ctx, key)
}

func identKiosk(t *testing.T, st model.Store) (*Kiosk, fyne.Window) {
	t.Helper()
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "the identification tile", func() bool { return k.ident.on && len(k.tileBtn) > 0 && !k.ident.tile.btn.Disabled() })
	return k, w
}

// A customer who cancels while the kiosk looks their card up is not
// identified when the answer comes: the next person's tap takes a plain
// number, not one carrying the card holder's name to the window.
func TestKioskIdentCancelledDuringLookup(t *testing.T) {
	st := newStore(t)
	registerVIP(t, st)
	desk := slowDesk{GormStore: st, release: make(chan struct{}), answered: make(chan struct{})}
	k, w := identKiosk(t, desk)
	wedgeScan(w, wedgeCard)
	WithUI(func() {
		if !k.ident.busy {
			t.Fatal("the scan started no lookup")
		}
		test.Tap(k.ident.cancel)
	})
	close(desk.release)
	<-desk.answered
	// The answer is handed to the screen by a fyne.Do right after.
	if err := offscreen.Quiet(context.Background(), 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	WithUI(func() {
		if k.ident.who != nil || strings.Contains(k.title.Text, "王**") {
			t.Fatalf("identified after cancel: %+v, title %q", k.ident.who, k.title.Text)
		}
		test.Tap(k.tileBtn[0])
	})
	waitFor(t, "the number", func() bool { return k.Shown() != "" })
	got, err := st.CallNext(context.Background(), 1, "")
	if err != nil {
		t.Fatal(err)
	}
	if got.CustomerID != 0 || got.Level != "" {
		t.Fatalf("the next tap's ticket carries the cancelled customer: %+v", got)
	}
}

// The identification panel covers the tiles: a tap on its blank part
// takes no number under it and keeps the digits typed.
func TestKioskIdentPanelSwallowsTaps(t *testing.T) {
	st := newStore(t)
	registerVIP(t, st)
	k, w := identKiosk(t, st)
	WithUI(func() {
		test.Tap(k.ident.tile.btn)
		test.Tap(k.ident.keypad[0])
		d := fyne.CurrentApp().Driver()
		at := d.AbsolutePositionForObject(k.tileBtn[0]).AddXY(4, 4)
		for _, b := range append(k.ident.keypad, k.ident.ok, k.ident.cancel) {
			p, s := d.AbsolutePositionForObject(b), b.Size()
			if at.X >= p.X && at.X < p.X+s.Width && at.Y >= p.Y && at.Y < p.Y+s.Height {
				t.Fatalf("the point %v is on a button of the panel", at)
			}
		}
		test.TapCanvas(w.Canvas(), at)
		if k.busy || string(k.ident.keys) != "1" || !k.ident.panel.Visible() {
			t.Fatalf("a tap on the panel reached the tiles: taking %v, typed %q, panel %v", k.busy, k.ident.keys, k.ident.panel.Visible())
		}
	})
}

// typeWedge types digits as a wedge reader does, without Enter.
func typeWedge(w fyne.Window, s string) {
	WithUI(func() {
		for _, r := range s {
			w.Canvas().OnTypedRune()(r)
		}
	})
}

// A scan the kiosk cannot have read whole (longer than any card, or with
// letters in it) identifies nobody, even when what is left of it is a
// registered card, and leaves nothing typed for the next scan.
func TestKioskWedgeRefusesOverlongAndLetters(t *testing.T) {
	st := newStore(t)
	registerVIP(t, st)
	k, w := identKiosk(t, st)
	for _, scan := range []string{wedgeCard + "12", "A" + wedgeCard, wedgeCard[:8] + "=" + wedgeCard[8:]} {
		wedgeScan(w, scan)
		WithUI(func() {
			if k.ident.busy || k.ident.who != nil {
				t.Fatalf("scan %q looked up or identified: busy %v, %+v", scan, k.ident.busy, k.ident.who)
			}
			if len(k.ident.keys) != 0 || k.ident.answer.Text == "" {
				t.Fatalf("scan %q left %q typed, answer %q", scan, k.ident.keys, k.ident.answer.Text)
			}
		})
	}
	// The card scanned whole still identifies.
	wedgeScan(w, wedgeCard)
	waitFor(t, "the greeting", func() bool { return k.ident.who != nil })
}

// Digits a failed scan left (no Enter) are dropped when the next scan
// starts after a pause, so the card scanned again identifies; Enter on
// nothing typed asks nothing.
func TestKioskWedgePartialScanForgotten(t *testing.T) {
	st := newStore(t)
	registerVIP(t, st)
	k, w := identKiosk(t, st)
	typeWedge(w, wedgeCard[:6])
	WithUI(func() {
		if string(k.ident.keys) != wedgeCard[:6] {
			t.Fatalf("typed %q", k.ident.keys)
		}
		k.ident.wedgeAt = time.Now().Add(-2 * wedgeGap) // the reader paused
	})
	wedgeScan(w, wedgeCard)
	waitFor(t, "the greeting", func() bool { return k.ident.who != nil && !k.ident.busy })
	WithUI(func() {
		k.forget()
		test.Tap(k.ident.tile.btn)
		w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if k.ident.busy || k.ident.who != nil {
			t.Fatal("Enter on nothing typed looked something up")
		}
	})
}
