package screens

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
	"jiaohao/screens/offscreen"
)

// Each role on the demo morning at every display size: no text clipped
// or overlapping. One window is resized through the sizes, as a display
// change or a rotated panel would.

// checkSizes lays w out at each of fitSizes and runs the fit check on
// its content, and extra (when not nil) on it too.
func checkSizes(t *testing.T, w fyne.Window, extra func(t testing.TB, root fyne.CanvasObject, size fyne.Size)) {
	t.Helper()
	for _, size := range fitSizes {
		WithUI(func() {
			w.Resize(size)
			offscreen.Settle(w.Canvas())
			assertFits(t, w.Canvas().Content(), size)
			if extra != nil {
				extra(t, w.Canvas().Content(), size)
			}
		})
	}
}

// assertFingerSized fails t for each tappable control under root smaller
// than a fingertip (touchTarget) either way.
func assertFingerSized(t testing.TB, root fyne.CanvasObject, size fyne.Size) {
	t.Helper()
	for _, p := range fingerProblems(root, size) {
		t.Errorf("%.0f×%.0f: %s", size.Width, size.Height, p)
	}
}

// fingerProblems names the visible tappable controls under root smaller
// than a fingertip, or says that there is none to tap at all.
func fingerProblems(root fyne.CanvasObject, size fyne.Size) []string {
	least := touchTarget()
	win := rectOf(fyne.Position{}, size)
	var out []string
	n := 0
	walkVisible(root, fyne.Position{}, win, win, func(o fyne.CanvasObject, _ fyne.Position, _, _ rect) {
		if _, ok := o.(fyne.Tappable); !ok {
			return
		}
		n++
		if s := o.Size(); s.Height < least || s.Width < least {
			label := ""
			if b, ok := o.(*widget.Button); ok {
				label = b.Text
			}
			out = append(out, fmt.Sprintf("%T %q is %.0f×%.0f, under a fingertip (%.0f)", o, label, s.Width, s.Height, least))
		}
	})
	if n == 0 {
		out = append(out, "no tappable control found")
	}
	return out
}

// The fingertip check fails a button of the default size and passes one
// kept at the fingertip.
func TestFitFingerCheckFindsSmallButtons(t *testing.T) {
	test.NewTempApp(t).Settings().SetTheme(Theme{})
	small := widget.NewButton("好的", nil)
	small.Resize(small.MinSize())
	size := fyne.NewSize(300, 300)
	if got := fingerProblems(container.NewWithoutLayout(small), size); len(got) != 1 || !strings.Contains(got[0], `"好的"`) {
		t.Errorf("a %v button was reported as %q, want it under a fingertip", small.Size(), got)
	}
	big := withLayout(touchSized{w: 1, h: 1, sc: &scaler{}}, widget.NewButton("好的", nil))
	big.Resize(big.MinSize())
	if got := fingerProblems(container.NewWithoutLayout(big), size); len(got) != 0 {
		t.Errorf("a button kept at the fingertip was reported: %q", got)
	}
	if got := fingerProblems(container.NewWithoutLayout(canvas.NewText("A003", colBrand)), size); len(got) != 1 {
		t.Errorf("a screen with nothing to tap gave %q", got)
	}
}

// inEachLanguage runs check once per language of the program: English
// labels are longer than Chinese ones and must fit as well.
func inEachLanguage(t *testing.T, check func(t *testing.T)) {
	for _, code := range []string{"zh", "en"} {
		t.Run(code, func(t *testing.T) {
			if err := SetLanguage(code); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { SetLanguage("zh") })
			check(t)
		})
	}
}

func TestFitKiosk(t *testing.T) { inEachLanguage(t, fitKiosk) }

// flakyEstimates is a flaky link whose tiles still get the estimates.
type flakyEstimates struct {
	*flaky
	np model.NextPositions
}

func (f flakyEstimates) NextPositions(ctx context.Context) (map[string]model.Position, error) {
	return f.np.NextPositions(ctx)
}

func fitKiosk(t *testing.T) {
	demo := demoStore(t)
	twoAreas(t, demo) // the number then says where to wait: one line more
	st := &flaky{Store: demo}
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, flakyEstimates{st, demo}, &recorder{}) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "tiles, VIP and the estimates", func() bool {
		return len(k.tileBtn) == 3 && k.vipBtn.Visible() && k.EstimatesShown() > 0
	})
	checkSizes(t, w, func(t testing.TB, root fyne.CanvasObject, size fyne.Size) {
		assertFingerSized(t, root, size)
		assertKioskTiles(t, k, size)
	})

	// the VIP entry chosen, then the number just taken, over the tiles
	WithUI(func() { test.Tap(k.vipBtn) })
	checkSizes(t, w, func(t testing.TB, root fyne.CanvasObject, size fyne.Size) {
		assertFingerSized(t, root, size)
		assertKioskTiles(t, k, size)
	})
	WithUI(func() { test.Tap(k.tileBtn[0]) })
	waitFor(t, "the number", func() bool { return k.Shown() != "" && k.eta.Text != "" && k.vipTag.Text != "" && k.area.Text != "" })
	checkSizes(t, w, assertFingerSized)

	// the longest sentence a customer meets: taking numbers paused
	WithUI(k.hideTicket)
	st.cut(true)
	waitFor(t, "paused", func() bool { return k.state.Text == tr("kiosk.paused") })
	checkSizes(t, w, assertFingerSized)
}

// assertKioskTiles checks the tiles' arrangement at size: one column on a
// portrait panel, two on a landscape one, and the VIP entry the same size
// as a service tile.
func assertKioskTiles(t testing.TB, k *Kiosk, size fyne.Size) {
	t.Helper()
	tiles := visibleOnly(k.tiles.Objects)
	if len(tiles) != 4 || tiles[3] != k.vipT.box {
		t.Fatalf("%v: %d tiles shown, want the 3 services and the VIP entry last", size, len(tiles))
	}
	if got, want := k.vipT.box.Size(), tiles[0].Size(); got != want {
		t.Errorf("%v: the VIP entry is %v, a service tile %v: it must be a full tile", size, got, want)
	}
	portrait := size.Height > size.Width
	for i, o := range tiles {
		col := o.Position().X > 0
		switch {
		case portrait && (col || o.Size().Width != k.tiles.Size().Width):
			t.Errorf("%v: tile %d at %v, %v: a portrait kiosk stacks its tiles in one full-width column", size, i, o.Position(), o.Size())
		case !portrait && col != (i%2 == 1):
			t.Errorf("%v: tile %d at %v: a landscape kiosk shows four tiles in two columns", size, i, o.Position())
		}
	}
}

func TestFitCaller(t *testing.T) { inEachLanguage(t, fitCaller) }

func fitCaller(t *testing.T) {
	st := demoStore(t)
	w := newTestWindow(t, 1280, 720)
	c := build(t, func(ctx context.Context) *Caller { return NewCaller(ctx, w, st, 2, &recorder{}) })
	waitLoaded(t, c.Loaded())
	waitFor(t, "A003 serving with A001 passed", func() bool {
		return c.number.Text == "A003" && passedRow(c, "A001") != nil
	})
	checkSizes(t, w, nil)
}

func TestFitManager(t *testing.T) { inEachLanguage(t, fitManager) }

func fitManager(t *testing.T) {
	st := demoStore(t)
	w := newTestWindow(t, 1280, 720)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	waitFor(t, "every page loaded", func() bool {
		return len(m.mon.win.box.Objects) == 4 && len(m.services.rows.Objects) == 3 &&
			len(m.windows.rows.Objects) == 4 && m.settings.loaded != nil
	})
	for i, tab := range m.tabs.Items {
		t.Run(tab.Text, func(t *testing.T) {
			WithUI(func() { m.tabs.SelectIndex(i) })
			checkSizes(t, w, nil)
		})
	}
}

// A big branch with long names: eight services (one portrait column) or
// fifteen (two), one named with the most characters a name may have, the
// VIP entry, a branch name of 30 characters; and a number taken while
// the printer is out of paper.
func TestFitKioskManyServices(t *testing.T) {
	for _, n := range []int{8, 15} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			inEachLanguage(t, func(t *testing.T) { fitKioskMany(t, n) })
		})
	}
}

func fitKioskMany(t *testing.T, services int) {
	st := demoStore(t)
	ctx := context.Background()
	if err := st.SetBranch(ctx, "中国工商银行北京市分行西城区金融街西单北大街支行营业部", "Asia/Shanghai"); err != nil {
		t.Fatal(err)
	}
	long := "个人外汇跨境汇款及国际结算咨询服务中心处"
	if n := utf8.RuneCountInString(long); n != model.MaxNameLen {
		t.Fatalf("the long name has %d characters, want the limit %d", n, model.MaxNameLen)
	}
	names := []string{long, "信用卡", "理财咨询", "贷款", "社保医保", "外汇兑换", "公积金", "养老金",
		"企业开户", "票据业务", "国际结算", "保险代理"}
	for i, name := range names[:services-3] { // the demo has A, B and V
		code := string(rune('C' + i))
		if _, err := st.SaveService(ctx, model.Service{Code: code, Name: name, Priority: model.DefaultPriority, StartNo: 1, Enabled: true, SortOrder: 10 + i}); err != nil {
			t.Fatal(err)
		}
	}
	w := newTestWindow(t, 1280, 720)
	printer := &recorder{fault: "out of paper"}
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, printer) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "the tiles and VIP", func() bool {
		return len(k.tileBtn) == services && k.vipBtn.Visible() && k.EstimatesShown() > 0 && strings.HasPrefix(k.branch.Text, "中国工商银行")
	})
	checkSizes(t, w, assertFingerSized)

	WithUI(func() { test.Tap(k.tileBtn[3]) })
	waitFor(t, "the number", func() bool { return k.Shown() != "" && k.printing.Text == tr("kiosk.print_fault") })
	checkSizes(t, w, assertFingerSized)
}

// The fingertip size is 9 mm where Fyne's logical pixel is smallest (1/120
// inch), and no larger than it must be.
func TestFitTouchTargetIsNineMillimetres(t *testing.T) {
	mm := func(px float32) float32 { return px / 120 * 25.4 }
	got := Theme{}.Size(SizeNameTouchTarget)
	if mm(got) < 9 || mm(got-1) >= 9 {
		t.Fatalf("touch target %.0f px is %.2f mm at 120 DPI, want the least size of at least 9 mm", got, mm(got))
	}
}

// The setup form is the first thing every PC shows, on whatever display.
func TestFitSetup(t *testing.T) {
	inEachLanguage(t, func(t *testing.T) {
		w := newTestWindow(t, 640, 720)
		WithUI(func() { NewSetup(w, &keeper{}, nil, nil) }) // a fresh PC
		checkSizes(t, w, nil)
	})
}

func TestFitHall(t *testing.T) { inEachLanguage(t, fitHall) }

// fitHall runs every layout of the hall through the sizes, with the
// media area's notice and a window at lunch on screen.
func fitHall(t *testing.T) {
	st := demoStore(t)
	for _, l := range model.HallLayouts {
		t.Run(string(l), func(t *testing.T) {
			w := newTestWindow(t, 1280, 720)
			h := build(t, func(ctx context.Context) *Hall { return NewHallWith(ctx, w, st, nil, HallOptions{Layout: l}) })
			waitLoaded(t, h.Loaded())
			waitFor(t, "the calls", func() bool {
				return h.branch.Text != "" && (l.Tiles() && h.tiles.shown == 4 || !l.Tiles() && h.list.rows[2].box.Visible())
			})
			checkSizes(t, w, nil)
		})
	}
}

func TestFitCounter(t *testing.T) { inEachLanguage(t, fitCounter) }

func fitCounter(t *testing.T) {
	st := demoStore(t)
	w := newTestWindow(t, 1280, 720)
	c := build(t, func(ctx context.Context) *Counter { return NewCounter(ctx, w, st, 2) })
	waitLoaded(t, c.Loaded())
	waitFor(t, "window 2's number", func() bool { return c.number.Text == "A003" })
	checkSizes(t, w, nil)
}

func TestFitEvaluator(t *testing.T) { inEachLanguage(t, fitEvaluator) }

// fitEvaluator checks the rating pad's card and its question at every
// display size and at the pads' own (7 and 10 inch, either way up); the
// question's buttons are fingertip-sized.
func fitEvaluator(t *testing.T) {
	st := demoStore(t)
	w := newTestWindow(t, 1280, 800)
	e := build(t, func(ctx context.Context) *Evaluator { return NewEvaluator(ctx, w, st, 2) })
	waitLoaded(t, e.Loaded())
	waitFor(t, "the card", func() bool { return e.settings > 0 && e.clerkName.Text != "" })
	pads := []fyne.Size{{Width: 1024, Height: 600}, {Width: 1280, Height: 800}, {Width: 800, Height: 1280}}
	check := func() {
		checkSizes(t, w, nil)
		for _, size := range pads {
			WithUI(func() {
				w.Resize(size)
				offscreen.Settle(w.Canvas())
				assertFits(t, w.Canvas().Content(), size)
			})
		}
	}
	check()
	WithUI(func() { e.startAsking(model.Ticket{ID: 1, Number: "A123"}) })
	WithUI(func() { e.timeout = time.Hour })
	check()
	for _, size := range append(pads, fitSizes...) {
		WithUI(func() {
			w.Resize(size)
			offscreen.Settle(w.Canvas())
			assertFingerSized(t, w.Canvas().Content(), size)
		})
	}
}
