package screens

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"jiaohao/dao/peer"
	"jiaohao/model"
)

// The branch's layout reaches the halls through the peer API: the
// manager's PC sets hall_layout, a hall on another PC (a peer client with
// a screen's token) switches to it, and a hall whose PC chose its own
// layout keeps that one. A bad value is refused in a sentence and changes
// nothing.
func TestHallLayoutFromBranchThroughPeer(t *testing.T) {
	st := demoStore(t)
	ctx := context.Background()
	srv := peer.NewServer(st, st, peer.Options{})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); ts.Close() })
	client := func(role model.Role) *peer.Client {
		tok, hash, err := peer.NewToken()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddTerminal(ctx, model.Terminal{Name: fmt.Sprint(role, hash[:6]), Role: role, TokenHash: hash}); err != nil {
			t.Fatal(err)
		}
		c, err := peer.NewClient(ts.URL, tok, ts.Client())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	mgr := client(model.RoleManager)
	branch := build(t, func(ctx context.Context) *Hall {
		return NewHall(ctx, newTestWindow(t, 1280, 720), client(model.RoleScreen), nil)
	})
	own := build(t, func(ctx context.Context) *Hall {
		return NewHallWith(ctx, newTestWindow(t, 1280, 720), client(model.RoleScreen), nil, HallOptions{Layout: model.HallSplitList})
	})
	waitLoaded(t, branch.Loaded())
	waitLoaded(t, own.Loaded())
	waitFor(t, "the branch default and the PC's own", func() bool {
		return branch.Layout() == model.HallList && own.Layout() == model.HallSplitList
	})

	reloads := own.Reloads()
	if err := mgr.SetSetting(ctx, "hall_layout", "tiles"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the hall in tiles", func() bool {
		return branch.Layout() == model.HallTiles && branch.tiles.tiles[2].num.Text == "A004"
	})
	waitFor(t, "the PC's own hall saw the change", func() bool { return own.Reloads() > reloads })
	WithUI(func() {
		if own.Layout() != model.HallSplitList {
			t.Errorf("the PC's own layout gave way to the branch's: %s", own.Layout())
		}
	})

	err := mgr.SetSetting(ctx, "hall_layout", "mosaic")
	if model.ErrorCode(err) != model.EInvalidInput || model.ErrorMessage(err) == "" {
		t.Fatalf("a bad layout: %v, want a sentence", err)
	}
	if set, _ := st.Settings(ctx); set.HallLayout != model.HallTiles {
		t.Fatalf("a refused layout changed the setting to %q", set.HallLayout)
	}
}

// Each layout shows the calls: the list's rows newest first, the tiles'
// number and status per window not closed (lunch and pause included), and
// the split layouts their media beside them.
func TestHallLayoutsShowTheCalls(t *testing.T) {
	for _, l := range model.HallLayouts {
		t.Run(string(l), func(t *testing.T) {
			st := demoStore(t)
			h := build(t, func(ctx context.Context) *Hall {
				return NewHallWith(ctx, newTestWindow(t, 1280, 720), st, nil, HallOptions{Layout: l})
			})
			waitLoaded(t, h.Loaded())
			if l.Tiles() {
				if _, err := st.SetWindowStatus(context.Background(), 4, model.WindowLunch); err != nil {
					t.Fatal(err)
				}
				want := [][3]string{{"1号窗口", "A002", "办理中"}, {"2号窗口", "A003", "办理中"}, {"3号窗口", "A004", "叫号中"}, {"4号窗口", "", "午休"}}
				waitFor(t, "a tile per window", func() bool {
					for i, w := range want {
						tl := h.tiles.tiles[i]
						if !tl.box.Visible() || tl.name.Text != w[0] || tl.num.Text != w[1] || tl.stat.Text != w[2] {
							return false
						}
					}
					return h.tiles.shown == 4 && !h.tiles.tiles[4].box.Visible()
				})
				if _, err := st.SetWindowStatus(context.Background(), 4, model.WindowPaused); err != nil {
					t.Fatal(err)
				}
				waitFor(t, "window 4 paused", func() bool { return h.tiles.tiles[3].stat.Text == "暂停" })
			} else {
				waitFor(t, "three call rows, newest first", func() bool {
					r := h.list.rows
					return r[0].num.Text == "A004" && r[0].win.Text == "→ 3 号窗口" && r[1].num.Text == "A003" && r[2].num.Text == "A002" &&
						r[2].box.Visible() && !r[3].box.Visible() && h.list.svc[0].Text != "" && h.list.passed[0].Text == "A001"
				})
			}
			WithUI(func() {
				if l.Split() != (h.media != nil && h.media.box.Visible()) {
					t.Fatalf("media area shown %v", h.media != nil)
				}
				if l.Split() && (h.media.clock.Text != "10:30" || h.media.notice[0].Text == "" || h.notice.text.Text != "") {
					t.Errorf("media clock %q, notice %q; marquee %q", h.media.clock.Text, h.media.notice[0].Text, h.notice.text.Text)
				}
			})
		})
	}
}

// A new call flashes and ends highlighted; the next call moves the
// highlight to its own row or tile.
func TestHallHighlightMovesOnNextCall(t *testing.T) {
	ctx := context.Background()
	for _, l := range []model.HallLayout{model.HallList, model.HallTiles} {
		t.Run(string(l), func(t *testing.T) {
			st := demoStore(t)
			take(t, st, "A", 2)
			h := build(t, func(ctx context.Context) *Hall {
				return NewHallWith(ctx, newTestWindow(t, 1280, 720), st, nil, HallOptions{Layout: l})
			})
			waitLoaded(t, h.Loaded())
			lit := func(win int) bool { // only win's row or tile is highlighted
				if l.Tiles() {
					for _, tl := range h.tiles.tiles[:h.tiles.shown] {
						if (tl.bg.FillColor == colHallHot) != (tl.win == win) {
							return false
						}
					}
					return true
				}
				r := h.list.rows
				return r[0].win.Text == tr("hall.to_window", kv("N", win)) && r[0].bg.FillColor == colHallHot && r[1].bg.FillColor == colHallRow
			}
			waitFor(t, "window 3's call highlighted", func() bool { return lit(3) })
			if _, err := st.CallNext(ctx, 4, ""); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "window 4's call highlighted, window 3's not", func() bool { return lit(4) && h.flash != nil })
			snap, _ := st.Snapshot(ctx)
			w3, _ := findWindow(snap, 3)
			if _, err := st.Pass(ctx, w3.Current.ID, 3); err != nil {
				t.Fatal(err)
			}
			if _, err := st.CallNext(ctx, 3, ""); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "window 3's new call highlighted, window 4's not", func() bool { return lit(3) })
		})
	}
}

// A flash blinks three times and ends lit.
func TestFlashBlinksThrice(t *testing.T) {
	dark, was := 0, true
	for i := 0; i <= 1000; i++ {
		on := flashLit(float32(i) / 1000)
		if was && !on {
			dark++
		}
		was = on
	}
	if dark != flashBlinks || flashBlinks != 3 || !flashLit(1) {
		t.Fatalf("%d blinks, lit at the end %v", dark, flashLit(1))
	}
}

// The calls list shows as many rows as fit at the least number size, so
// a tall display shows more than a small landscape one; a number is never
// smaller than the least size.
func TestHallRowsGrowWithHeight(t *testing.T) {
	st := demoStore(t)
	fits := map[fyne.Size]int{}
	for _, size := range []fyne.Size{{Width: 1280, Height: 720}, {Width: 1080, Height: 1920}} {
		h := build(t, func(ctx context.Context) *Hall {
			return NewHall(ctx, newTestWindow(t, size.Width, size.Height), st, nil)
		})
		waitLoaded(t, h.Loaded())
		waitFor(t, "rows", func() bool { return h.list.rows[2].box.Visible() })
		WithUI(func() {
			fits[size] = h.list.fits
			short := min(size.Width, size.Height)
			if got := h.list.rows[0].num.TextSize; got < short*numberMin*0.99 {
				t.Errorf("%v: number size %.1f, under %.0f %% of %.0f", size, got, numberMin*100, short)
			}
		})
	}
	if fits[fyne.NewSize(1080, 1920)] <= fits[fyne.NewSize(1280, 720)] {
		t.Fatalf("rows that fit: %v, want more at 1080×1920", fits)
	}
}

// The manager edits the branch's layout on the settings page like any
// setting: a bad one is a sentence and changes nothing, a good one moves
// the halls that follow the branch.
func TestManagerSetsHallLayout(t *testing.T) {
	st := demoStore(t)
	// Both windows before either screen runs: a new test app is current
	// for a moment before it is serialised, and a running screen's update
	// would land on it outside the UI lock.
	mw, hw := newTestWindow(t, 1024, 768), newTestWindow(t, 1280, 720)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, mw, st, ManagerDeps{}) })
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, hw, st, nil) })
	waitLoaded(t, m.Loaded())
	waitLoaded(t, h.Loaded())
	d := m.display
	waitFor(t, "the display page loaded", func() bool { return d.layout.Selected == layoutName(model.HallList) && d.own.Checked })

	// A pale number on cream is refused before anything is written: the
	// layout chosen with it stays unsaved too.
	WithUI(func() {
		d.layout.SetSelected(layoutName(model.HallSplitTiles))
		d.own.SetChecked(false)
		d.colour[0].SetText("#f5f0e1")
		d.colour[1].SetText("#f0e0d0")
	})
	waitFor(t, "the preview's verdict", func() bool {
		return d.verdict.Importance == widget.DangerImportance && strings.Contains(d.verdict.Text, "4.5")
	})
	WithUI(func() { test.Tap(d.saveBtn) })
	waitFor(t, "the refusal", func() bool { return strings.Contains(d.msg.Text, "4.5") })
	if set, _ := st.Settings(context.Background()); set.HallLayout != model.HallList || set.Look.Set {
		t.Fatalf("a refused page saved layout %q, colours %v", set.HallLayout, set.Look)
	}
	WithUI(func() {
		d.own.SetChecked(true)
		test.Tap(d.saveBtn)
	})
	waitFor(t, "the hall in split tiles", func() bool {
		return h.Layout() == model.HallSplitTiles && h.tiles.shown == 4 && h.media.box.Visible()
	})
}

// The split layouts show the still images of the PC's folder in turn, by
// name, leaving out files that are no image; the first is up at once.
func TestHallMediaPictures(t *testing.T) {
	dir := t.TempDir()
	img := image.NewNRGBA(image.Rect(0, 0, 4, 3))
	for _, name := range []string{"b.png", "a.PNG", "notes.txt"} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	pics := pictures(dir)
	a, b := filepath.Join(dir, "a.PNG"), filepath.Join(dir, "b.png")
	if !slices.Equal(pics, []string{a, b}) {
		t.Fatalf("pictures %q", pics)
	}
	if got := []string{nextPicture(pics, ""), nextPicture(pics, a), nextPicture(pics, b), nextPicture(pics, "gone.png"), nextPicture(nil, a)}; !slices.Equal(got, []string{a, b, a, a, ""}) {
		t.Fatalf("turns %q", got)
	}
	if pictures(filepath.Join(dir, "missing")) != nil || pictures("") != nil {
		t.Fatal("a missing or unset folder has pictures")
	}
	st := demoStore(t)
	h := build(t, func(ctx context.Context) *Hall {
		return NewHallWith(ctx, newTestWindow(t, 1280, 720), st, nil, HallOptions{Layout: model.HallSplitList, Media: dir})
	})
	waitLoaded(t, h.Loaded())
	waitFor(t, "the first picture", func() bool { return h.media != nil && h.media.pic.Visible() && h.media.file == a })
}
