package screens

import (
	"context"
	"strings"
	"testing"

	"jiaohao/model"
)

// The tiles promise the wait the ticket will get: the store's estimate for
// a number taken now, not the queue over the windows, and they follow the
// queue as it grows.
func TestKioskTilesShowTheTakeEstimate(t *testing.T) {
	st := newStore(t)
	take(t, st, "A", 6)
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "an estimate", func() bool { return k.EstimatesShown() > 0 && len(k.tileInfo) > 0 })

	want := func() string {
		t.Helper()
		np, err := st.NextPositions(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return etaText(np["A"])
	}
	tile := func() string { return k.tileInfo[0].Text } // waitFor's conditions run on the UI
	first := want()
	waitFor(t, "the estimate on the A tile", func() bool { return strings.HasSuffix(tile(), first) })
	// The rough figure would be 6 × 300 s over 4 windows: 8 minutes. The
	// windows call four at once, so the seventh customer is reached after
	// one service time.
	if rough := etaText(model.Position{ETASeconds: 300 * 6 / 4}); rough == first {
		t.Fatalf("the estimate %q is the rough figure: the test cannot tell them apart", first)
	}

	shown := k.EstimatesShown()
	take(t, st, "A", 4)
	waitFor(t, "a new estimate", func() bool { return k.EstimatesShown() > shown })
	later := want()
	if later == first {
		t.Fatalf("ten waiting promise %q as six did", later)
	}
	waitFor(t, "the new estimate on the tile", func() bool { return strings.HasSuffix(tile(), later) })
}

// A store that gives no estimate before a take leaves the tiles their
// rough figure.
func TestKioskTilesWithoutEstimates(t *testing.T) {
	st := struct{ model.Store }{newStore(t)}
	take(t, st, "A", 6)
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
	waitLoaded(t, k.Loaded())
	rough := etaText(model.Position{ETASeconds: 300 * 6 / 4})
	waitFor(t, "the rough figure", func() bool {
		return len(k.tileInfo) > 0 && strings.HasSuffix(k.tileInfo[0].Text, rough)
	})
	if k.EstimatesShown() != 0 {
		t.Fatal("estimates shown from a store that has none")
	}
}

// With every window at lunch or closed no one calls the next number, even
// with nobody ahead: the tile and the ticket shown say no window serves
// now, never "no wait".
func TestKioskNoWindowIsNotNoWait(t *testing.T) {
	st := newStore(t)
	snap, err := st.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, win := range snap.Windows {
		status := model.WindowClosed
		if win.Number == 1 {
			status = model.WindowPaused
		}
		if _, err := st.SetWindowStatus(context.Background(), win.Number, status); err != nil {
			t.Fatal(err)
		}
	}
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
	waitLoaded(t, k.Loaded())
	none := tr("kiosk.no_window")
	waitFor(t, "no window on the A tile", func() bool {
		return k.EstimatesShown() > 0 && len(k.tileInfo) > 0 && strings.HasSuffix(k.tileInfo[0].Text, none)
	})
	WithUI(func() { k.take("A") })
	waitFor(t, "the number", func() bool { return k.Shown() != "" })
	var eta string
	WithUI(func() { eta = k.eta.Text })
	if eta != none {
		t.Fatalf("the ticket says %q, want %q", eta, none)
	}
}
