package screens

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/canvas"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// twoAreas moves service V into a new area upstairs; A and B stay in the
// default area.
func twoAreas(t testing.TB, st daotest.AreaStore) model.Area {
	t.Helper()
	return daotest.MoveToNewArea(t, st, "V", model.Area{Name: "二楼贵宾区", Where: "二楼"})
}

// The hall of one area shows and announces only that area's calls,
// waiting counts and passed numbers; the hall of every area shows them
// all and its voice names the area each call sends the customer to.
func TestAreaHallShowsAndAnnouncesOnlyItsArea(t *testing.T) {
	st := newStore(t)
	twoAreas(t, st)
	ctx := context.Background()
	upAnn, allAnn := &recorder{}, &recorder{}
	up := build(t, func(ctx context.Context) *Hall {
		return NewHallWith(ctx, newTestWindow(t, 1280, 720), st, upAnn, HallOptions{Area: "二楼贵宾区"})
	})
	all := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, newTestWindow(t, 1280, 720), st, allAnn) })
	waitLoaded(t, up.Loaded())
	waitLoaded(t, all.Loaded())

	take(t, st, "A", 3)
	take(t, st, "V", 2)
	step := func(f func(context.Context, int64, int) (model.Ticket, error), tk model.Ticket) {
		t.Helper()
		if _, err := f(ctx, tk.ID, tk.Window); err != nil {
			t.Fatal(err)
		}
	}
	call := func(window int, svc string) model.Ticket {
		t.Helper()
		tk, err := st.CallNext(ctx, window, svc)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	step(st.Pass, call(1, "A"))
	call(1, "A")
	step(st.Pass, call(3, "V"))
	call(3, "V")

	waitFor(t, "the VIP hall's calls", func() bool {
		return slices.Equal(upAnn.numbers(), []string{"V001", "V002"}) && up.list.rows[0].num.Text == "V002"
	})
	waitFor(t, "every call on the hall of every area", func() bool {
		return slices.Equal(allAnn.numbers(), []string{"A001", "A002", "V001", "V002"})
	})
	var rows []string
	var waiting, passed string
	WithUI(func() {
		for _, r := range up.list.rows {
			if r.num.Text != "" {
				rows = append(rows, r.num.Text)
			}
		}
		waiting, passed = lineTexts(up.list.svc[:]), lineTexts(up.list.passed[:])
	})
	var title string
	WithUI(func() { title = up.branch.Text })
	if !strings.HasSuffix(title, " · 二楼贵宾区") {
		t.Errorf("the VIP hall's header %q does not name its area", title)
	}
	if !slices.Equal(rows, []string{"V002"}) {
		t.Errorf("the VIP hall shows the calls %v, want only V002", rows)
	}
	if !strings.Contains(waiting, "V ") || strings.Contains(waiting, "A ") || strings.Contains(waiting, "B ") {
		t.Errorf("the VIP hall's waiting counts: %q, want V's only", waiting)
	}
	if !strings.Contains(passed, "V001") || strings.Contains(passed, "A001") {
		t.Errorf("the VIP hall's passed numbers: %q, want V001 and not A001", passed)
	}
	var allWaiting, allPassed string
	WithUI(func() { allWaiting, allPassed = lineTexts(all.list.svc[:]), lineTexts(all.list.passed[:]) })
	if !strings.Contains(allWaiting, "A ") || !strings.Contains(allPassed, "A001") || !strings.Contains(allPassed, "V001") {
		t.Errorf("the hall of every area: waiting %q, passed %q", allWaiting, allPassed)
	}

	upAnn.mu.Lock()
	for _, tk := range upAnn.got {
		if tk.Area != nil {
			t.Errorf("the VIP hall names the area of its own call %s: %+v", tk.Number, tk.Area)
		}
	}
	upAnn.mu.Unlock()
	allAnn.mu.Lock()
	for _, tk := range allAnn.got {
		want := "大厅"
		if tk.Service == "V" {
			want = "二楼"
		}
		if tk.Area == nil || tk.Area.Spoken() != want {
			t.Errorf("the hall of every area says %s without its area %q: %+v", tk.Number, want, tk.Area)
		}
	}
	allAnn.mu.Unlock()
}

// A hall set to an area the branch does not have shows every area and
// says so, rather than a blank screen.
func TestHallOfUnknownAreaSaysSo(t *testing.T) {
	st := newStore(t)
	h := build(t, func(ctx context.Context) *Hall {
		return NewHallWith(ctx, newTestWindow(t, 1280, 720), st, nil, HallOptions{Area: "三楼"})
	})
	waitLoaded(t, h.Loaded())
	waitFor(t, "the unknown area named", func() bool { return strings.Contains(h.linkT.Text, "三楼") })
}

// lineTexts joins a pool of hall lines, the empty ones left out.
func lineTexts(ts []*canvas.Text) string {
	var out []string
	for _, t := range ts {
		if t.Text != "" {
			out = append(out, t.Text)
		}
	}
	return strings.Join(out, " | ")
}

func TestFitHallOfOneArea(t *testing.T) { inEachLanguage(t, fitHallOfOneArea) }

// fitHallOfOneArea: the header of a hall of one area carries the area's
// name beside the branch's; nothing may run past its box at any size.
func fitHallOfOneArea(t *testing.T) {
	st := demoStore(t)
	twoAreas(t, st)
	for _, l := range []model.HallLayout{model.HallList, model.HallSplitTiles} {
		t.Run(string(l), func(t *testing.T) {
			w := newTestWindow(t, 1280, 720)
			h := build(t, func(ctx context.Context) *Hall {
				return NewHallWith(ctx, w, st, nil, HallOptions{Layout: l, Area: "大厅"})
			})
			waitLoaded(t, h.Loaded())
			waitFor(t, "the area's hall", func() bool {
				return strings.HasSuffix(h.branch.Text, " · 大厅") && (l.Tiles() && h.tiles.shown > 0 || !l.Tiles() && h.list.rows[0].box.Visible())
			})
			checkSizes(t, w, nil)
		})
	}
}
