package screens

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

const (
	wedgeCard = "6222020200112233445"
	vipPhone  = "13812345678"
)

func registerVIP(t *testing.T, st *sqlstore.GormStore) model.Customer {
	t.Helper()
	ctx := context.Background()
	if err := st.SetSetting(ctx, "customer_ident", "true"); err != nil {
		t.Fatal(err)
	}
	c, err := st.SaveCustomer(ctx, model.CustomerInput{
		Customer:   model.Customer{Number: "C001", Name: "王小明", Phone: vipPhone, Level: "贵宾"},
		CardNumber: wedgeCard,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wedgeScan types as a keyboard-wedge card reader does: every digit as a
// key event on the window's canvas, then Enter, in one burst.
func wedgeScan(w fyne.Window, digits string) {
	WithUI(func() {
		c := w.Canvas()
		for _, r := range digits {
			c.OnTypedRune()(r)
		}
		c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	})
}

// A 贵宾 scans a card with a wedge reader while the tiles show: the kiosk
// greets them by level and masked name (never the number), the service
// tapped takes a number carrying the customer at the level's priority, and
// a window calls it before the normal tickets taken earlier.
func TestKioskWedgeScanIdentifiesAndPrioritises(t *testing.T) {
	st := newStore(t)
	c := registerVIP(t, st)
	earlier := take(t, st, "A", 2)
	w := newTestWindow(t, 1280, 720)
	printer := &recorder{}
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, printer) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "the identification tile", func() bool { return k.ident.on && k.ident.tile.box.Visible() && len(k.tileBtn) > 0 })

	wedgeScan(w, wedgeCard)
	waitFor(t, "the greeting", func() bool { return k.ident.who != nil && strings.Contains(k.title.Text, "王**") })
	WithUI(func() {
		if strings.Contains(k.title.Text, "王小明") || k.ident.panel.Visible() {
			t.Errorf("title %q, panel shown %v", k.title.Text, k.ident.panel.Visible())
		}
		test.Tap(k.tileBtn[0])
	})
	waitFor(t, "the number", func() bool { return k.Shown() == "A003" })
	WithUI(func() {
		if !strings.Contains(k.vipTag.Text, "贵宾") {
			t.Errorf("the ticket's screen says %q, not the level", k.vipTag.Text)
		}
		if k.ident.who != nil {
			t.Error("the customer stays chosen after the take")
		}
	})
	got, err := st.CallNext(context.Background(), 1, "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Number != "A003" || got.CustomerID != c.ID || got.Priority != 1 || got.Level != "贵宾" {
		t.Fatalf("called %+v first, want the 贵宾's A003 before %s and %s", got, earlier[0].Number, earlier[1].Number)
	}
	if p := printer.numbers(); len(p) != 1 || p[0] != "A003" {
		t.Fatalf("printed %v", p)
	}
}

// A phone typed on the keypad identifies too; the panel shows only the
// last 4 digits; an unknown number says so and takes nothing.
func TestKioskKeypadPhoneAndUnknown(t *testing.T) {
	st := newStore(t)
	registerVIP(t, st)
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "the identification tile", func() bool { return k.ident.on && !k.ident.tile.btn.Disabled() })

	WithUI(func() {
		test.Tap(k.ident.tile.btn)
		for _, r := range "13900000000" {
			test.Tap(k.ident.keypad[strings.IndexRune("123456789X0", r)])
		}
		if k.ident.typed.Text != "•••••••0000" {
			t.Errorf("typed shows %q", k.ident.typed.Text)
		}
		test.Tap(k.ident.ok)
	})
	waitFor(t, "not found", func() bool { return strings.Contains(k.ident.answer.Text, "没有找到") })
	WithUI(func() {
		for _, r := range vipPhone {
			test.Tap(k.ident.keypad[strings.IndexRune("123456789X0", r)])
		}
		test.Tap(k.ident.ok)
	})
	waitFor(t, "the greeting", func() bool { return k.ident.who != nil && k.ident.who.Level == "贵宾" })
	snap, _ := st.Snapshot(context.Background())
	if n := len(snap.RecentCalls) + snap.Services[0].Waiting; n != 0 {
		t.Fatalf("identifying took %d numbers", n)
	}
}

// With customer_ident off (the default) the kiosk shows no tile and
// ignores typed digits.
func TestKioskIdentOffByDefault(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "tiles", func() bool { return len(k.tileBtn) > 0 })
	wedgeScan(w, wedgeCard)
	WithUI(func() {
		if k.ident.on || k.ident.tile.box.Visible() || k.ident.panel.Visible() {
			t.Fatal("identification shown with customer_ident off")
		}
	})
}
