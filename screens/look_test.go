package screens

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/screens/offscreen"
)

// testLogo is a small PNG, wider than tall like most logos.
func testLogo(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 60, 20))
	for i := range img.Pix {
		img.Pix[i] = 0xc0
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const lightLook = "background=#f5f0e1&number=#8b0000&highlight=#ffd54f&text=#1a1a1a"

func rootFill(o fyne.CanvasObject) color.Color {
	return o.(*fyne.Container).Objects[0].(*canvas.Rectangle).FillColor
}

func logoShown(l *logoView, data []byte) bool {
	r, ok := l.img.Resource.(*fyne.StaticResource)
	return ok && l.box.Visible() && bytes.Equal(r.StaticContent, data)
}

func TestHallFollowsBranchColoursAndLogo(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	take(t, st, "A", 1)
	if _, err := st.CallNext(ctx, 1, ""); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, 1280, 720)
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, st, &recorder{}) })
	waitLoaded(t, h.Loaded())
	waitFor(t, "the hall's own colours", func() bool {
		return rootFill(h.content) == colHallBg && h.list.rows[0].box.Visible() && h.list.rows[0].num.Color == colHallNum
	})

	// Set while the hall runs: it follows through the configuration event.
	logo := testLogo(t)
	if err := st.SetSetting(ctx, "colors", lightLook); err != nil {
		t.Fatal(err)
	}
	if err := st.SetLogo(ctx, logo); err != nil {
		t.Fatal(err)
	}
	look, _ := model.ParseLook(lightLook)
	waitFor(t, "the branch's colours and logo on the hall", func() bool {
		r := h.list.rows[0]
		return rootFill(h.content) == look.Background && r.box.Visible() && r.num.Color == look.Number &&
			r.win.Color == look.Text && r.bg.FillColor == look.Highlight && h.branch.Color == look.Text &&
			logoShown(h.logo, logo) && w.Content() == h.content
	})

	// A refused pair changes nothing on screen either.
	if err := st.SetSetting(ctx, "colors", "background=#f5f0e1&number=#f0e0d0"); !model.IsCode(err, model.ELowContrast) {
		t.Fatalf("a pale number on cream = %v, want %s", err, model.ELowContrast)
	}
	if err := st.SetLogo(ctx, nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the logo removed, the colours kept", func() bool {
		return !h.logo.box.Visible() && rootFill(h.content) == look.Background && h.list.rows[0].num.Color == look.Number
	})
}

func TestKioskShowsBranchColoursAndLogo(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	logo := testLogo(t)
	if err := st.SetSetting(ctx, "colors", lightLook); err != nil {
		t.Fatal(err)
	}
	if err := st.SetLogo(ctx, logo); err != nil {
		t.Fatal(err)
	}
	if err := st.SetSetting(ctx, "notice", "今日理财讲座 14:00"); err != nil {
		t.Fatal(err)
	}
	look, _ := model.ParseLook(lightLook)
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, &recorder{}) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "the branch's colours and logo on the kiosk", func() bool {
		return rootFill(k.content) == look.Background && k.overlayBg.FillColor == look.Background &&
			k.number.Color == look.Number && k.branch.Color == look.Text && logoShown(k.logo, logo) &&
			k.notice.box.Visible() && k.notice.text.Text == "今日理财讲座 14:00" && k.notice.text.Color == look.Text &&
			len(k.tileBtn) == 3
	})
	// The number a customer takes shows in the branch's number colour.
	WithUI(func() { k.tileBtn[0].OnTapped() })
	waitFor(t, "the number on the branch's background", func() bool {
		return k.overlay.Visible() && k.number.Text != "" && k.number.Color == look.Number && k.overlayBg.FillColor == look.Background
	})
}

func TestManagerSetsTheLogoFromAFile(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1024, 768)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	f := m.display.logo
	waitFor(t, "no logo yet", func() bool { return f.state.Text == "未设置标志 (PNG 或 JPEG，最大 256 KB)" })

	logo := testLogo(t)
	WithUI(func() { f.saveFrom(bytes.NewReader(logo)) })
	waitFor(t, "the logo saved", func() bool { return f.msg.Text == tr("settings.logo_saved") && f.preview.Resource != nil })
	if got, err := st.Logo(context.Background()); err != nil || !bytes.Equal(got, logo) {
		t.Fatalf("the store has %d bytes (%v), want the file's %d", len(got), err, len(logo))
	}
	// A file that is no image: the store's sentence, and the logo stays.
	WithUI(func() { f.saveFrom(bytes.NewReader([]byte("not an image at all"))) })
	waitFor(t, "the refusal", func() bool { return f.msg.Importance == widget.DangerImportance && f.msg.Text != "" })
	if got, _ := st.Logo(context.Background()); !bytes.Equal(got, logo) {
		t.Fatal("a refused file replaced the logo")
	}
}

// The hall's own palette is DefaultLook: a "colors" value that leaves a
// part out must not draw it differently from a hall without one, and the
// newest call's number on its row passes the same check as the branch's.
func TestHallOwnPaletteIsTheCheckedDefault(t *testing.T) {
	own := hallPalette(model.Look{})
	l := model.DefaultLook
	if own.bg != l.Background || own.num != l.Number || own.hot != l.Highlight || own.text != l.Text {
		t.Fatalf("the hall's own palette %+v is not DefaultLook %+v", own, l)
	}
	if err := model.CheckContrast(l); err != nil {
		t.Fatal(err)
	}
	// The warning staff must see from across the hall, too.
	if !readableOn(own.warn, own.bg) {
		t.Errorf("the hall's warning %v on %v is under %.1f:1", own.warn, own.bg, model.MinContrast)
	}
}

// readableOn says whether fg on bg passes the branch look's contrast check.
func readableOn(fg, bg color.Color) bool {
	return model.ContrastRatio(color.NRGBAModel.Convert(fg).(color.NRGBA), color.NRGBAModel.Convert(bg).(color.NRGBA)) >= model.MinContrast
}

// Every text over the taken number sits on the branch's background: the
// VIP mark and the print line too, in a fault as when it prints.
func TestKioskTicketTextsReadableOnBranchBackground(t *testing.T) {
	st := newStore(t)
	const dark = "background=#0a1628&number=#ffd54f&highlight=#b71c1c&text=#ffffff"
	if err := st.SetSetting(context.Background(), "colors", dark); err != nil {
		t.Fatal(err)
	}
	look, _ := model.ParseLook(dark)
	printer := &recorder{}
	w := newTestWindow(t, 1280, 720)
	k := build(t, func(ctx context.Context) *Kiosk { return NewKiosk(ctx, w, st, printer) })
	waitLoaded(t, k.Loaded())
	waitFor(t, "the branch's colours", func() bool {
		return k.overlayBg.FillColor == look.Background && k.vipBtn.Visible() && len(k.tileBtn) > 0 && !k.tileBtn[0].Disabled()
	})
	for _, fault := range []string{"", "缺纸"} {
		printer.mu.Lock()
		printer.fault = fault
		printer.mu.Unlock()
		shown := k.Shown()
		WithUI(func() {
			k.hideTicket()
			test.Tap(k.vipBtn)
			test.Tap(k.tileBtn[0])
		})
		waitFor(t, "a VIP number", func() bool { return k.Shown() != "" && k.Shown() != shown && k.vipTag.Text != "" })
		WithUI(func() {
			for name, c := range map[string]color.Color{"VIP mark": k.vipTag.Color, "print line": k.printing.Color, "number": k.number.Color} {
				if !readableOn(c, k.overlayBg.FillColor) {
					t.Errorf("fault %q: the %s %v on the branch's background %v is under %.1f:1", fault, name, c, k.overlayBg.FillColor, model.MinContrast)
				}
			}
		})
	}
}

// slowSettings hands out the settings it read only when let go, one read
// at a time once held: an older answer that comes last.
type slowSettings struct {
	model.Store
	hold atomic.Bool
	gate chan struct{}
}

func (s *slowSettings) Settings(ctx context.Context) (model.Settings, error) {
	st, err := s.Store.Settings(ctx)
	if s.hold.CompareAndSwap(true, false) {
		<-s.gate
	}
	return st, err
}

// Two colour changes in a row: the hall ends in the second even when the
// answer to the first reload comes after the answer to the second.
func TestHallKeepsTheNewestLookWhenAnswersCrossOver(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	slow := &slowSettings{Store: st, gate: make(chan struct{})}
	w := newTestWindow(t, 1280, 720)
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, slow, &recorder{}) })
	t.Cleanup(func() { close(slow.gate) })
	waitLoaded(t, h.Loaded())
	waitFor(t, "the hall's own colours", func() bool { return rootFill(h.content) == colHallBg })

	const first = "background=#000000&number=#ffffff&highlight=#1a237e&text=#ffffff"
	reloads := h.Reloads()
	slow.hold.Store(true) // the first change's answer is held
	if err := st.SetSetting(ctx, "colors", first); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first reload", func() bool { return h.Reloads() > reloads && !slow.hold.Load() })
	if err := st.SetSetting(ctx, "colors", lightLook); err != nil {
		t.Fatal(err)
	}
	look, _ := model.ParseLook(lightLook)
	waitFor(t, "the second look", func() bool { return rootFill(h.content) == look.Background })
	slow.gate <- struct{}{} // now the first answer comes
	// Its answer lands on the UI within moments; a slow machine can only
	// make this test miss the fault, never fail a right hall.
	qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := offscreen.Quiet(qctx, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	WithUI(func() {
		if got := rootFill(h.content); got != look.Background {
			t.Errorf("the hall shows background %v of the first change, want the second's %v", got, look.Background)
		}
	})
}

// flakyLogo is a store whose logo cannot be read while fail is set.
type flakyLogo struct {
	*sqlstore.GormStore
	fail atomic.Bool
}

func (f *flakyLogo) Logo(ctx context.Context) ([]byte, error) {
	if f.fail.Load() {
		return nil, model.Errorf(model.EUnavailable, "logo unreadable")
	}
	return f.GormStore.Logo(ctx)
}

// A reload whose logo read fails keeps the logo on screen: only the store
// saying there is none takes it away.
func TestHallKeepsItsLogoWhenARereadFails(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	logo := testLogo(t)
	if err := st.SetLogo(ctx, logo); err != nil {
		t.Fatal(err)
	}
	link := &flakyLogo{GormStore: st}
	w := newTestWindow(t, 1280, 720)
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, link, &recorder{}) })
	waitLoaded(t, h.Loaded())
	waitFor(t, "the logo", func() bool { return logoShown(h.logo, logo) })
	link.fail.Store(true)
	if err := st.SetSetting(ctx, "colors", lightLook); err != nil { // a reload that reads the look again
		t.Fatal(err)
	}
	look, _ := model.ParseLook(lightLook)
	waitFor(t, "the new colours", func() bool { return rootFill(h.content) == look.Background })
	WithUI(func() {
		if !logoShown(h.logo, logo) {
			t.Error("a failed read of the logo took it off the hall")
		}
	})
}
