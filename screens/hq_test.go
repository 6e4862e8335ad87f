package screens

import (
	"context"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// fakeHQ hands the screen the updates a test sends.
type fakeHQ struct{ ch chan model.OverviewUpdate }

// WatchOverview forwards the test's updates until ctx ends, then closes,
// as the peer client's does.
func (f fakeHQ) WatchOverview(ctx context.Context) (<-chan model.OverviewUpdate, error) {
	out := make(chan model.OverviewUpdate)
	go func() {
		defer close(out)
		for {
			select {
			case u := <-f.ch:
				select {
				case out <- u:
				case <-ctx.Done():
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// hqRowOf is the cells on screen of a branch's line, and their importance.
func hqRowOf(h *HQ, code string) ([8]string, widget.Importance, bool) {
	for i, o := range h.shown {
		if o.Code == code {
			var out [8]string
			for j, c := range h.rowUI[i].cells {
				out[j] = c.Text
			}
			return out, h.rowUI[i].cells[0].Importance, h.rowUI[i].box.Visible()
		}
	}
	return [8]string{}, 0, false
}

func hqCodes(h *HQ) []string {
	var out []string
	for _, o := range h.shown {
		out = append(out, o.Code)
	}
	return out
}

var hqDemo = []model.BranchOverview{
	{Code: "B001", Name: "营业网点", Waiting: 3, Serving: 2, OpenWindows: 4, LongestWait: 6 * time.Minute},
	{Code: "BJ001", Name: "北京分行", Waiting: 12, Serving: 3, OpenWindows: 3, LongestWait: 25 * time.Minute, Alerts: 1},
	{Code: "SH001", Name: "上海分行", Waiting: 1, Serving: 1, OpenWindows: 2, LongestWait: 90 * time.Second, Faults: 1},
	{Code: "GZ001", Name: "广州分行", OpenWindows: 4},
}

// The lines that need attention (an alert, a fault, a wait over twenty
// minutes) are red and first, the rest by code, with the totals below;
// a lost link greys every line and says so, and the next full update
// brings them back.
func TestHQScreenLines(t *testing.T) {
	src := fakeHQ{ch: make(chan model.OverviewUpdate, 4)}
	w := newTestWindow(t, 1024, 600)
	h := build(t, func(ctx context.Context) *HQ { return NewHQ(ctx, w, src) })
	src.ch <- model.OverviewUpdate{Full: true, Lines: hqDemo}
	waitLoaded(t, h.Loaded())
	WithUI(func() {
		if got := hqCodes(h); len(got) != 4 || got[0] != "BJ001" || got[1] != "SH001" || got[2] != "B001" || got[3] != "GZ001" {
			t.Errorf("order %v, want BJ001 SH001 (trouble) then B001 GZ001", got)
		}
		cells, imp, _ := hqRowOf(h, "BJ001")
		if cells != [8]string{"BJ001", "北京分行", "12", "3", "3", "25 分钟", "1", "0"} || imp != widget.DangerImportance {
			t.Errorf("BJ001 %v (%v)", cells, imp)
		}
		if cells, imp, _ := hqRowOf(h, "GZ001"); cells[5] != "—" || imp != widget.MediumImportance {
			t.Errorf("GZ001 %v (%v)", cells, imp)
		}
		tot := h.total.cells
		if tot[1].Text != "4 个网点" || tot[2].Text != "16" || tot[3].Text != "6" || tot[4].Text != "13" || tot[5].Text != "25 分钟" || tot[6].Text != "1" || tot[7].Text != "1" {
			t.Errorf("totals %q %q %q %q %q %q %q", tot[1].Text, tot[2].Text, tot[3].Text, tot[4].Text, tot[5].Text, tot[6].Text, tot[7].Text)
		}
		if h.link.Visible() {
			t.Errorf("link banner shown while up: %q", h.link.Text)
		}
	})

	// One line changes: the alert is acknowledged, BJ001 drops to its place.
	fixed := hqDemo[1]
	fixed.Alerts, fixed.LongestWait = 0, 4*time.Minute
	src.ch <- model.OverviewUpdate{Lines: []model.BranchOverview{fixed}}
	waitFor(t, "BJ001 back among the calm", func() bool {
		got := hqCodes(h)
		return len(got) == 4 && got[0] == "SH001" && got[1] == "B001" && got[2] == "BJ001"
	})
	src.ch <- model.OverviewUpdate{Down: true}
	waitFor(t, "the lost link", func() bool {
		_, imp, _ := hqRowOf(h, "SH001")
		return h.link.Visible() && h.link.Text == tr("hq.down") && imp == widget.LowImportance
	})
	src.ch <- model.OverviewUpdate{Full: true, Lines: hqDemo[:1]}
	waitFor(t, "the link back with one branch", func() bool {
		_, imp, shown := hqRowOf(h, "B001")
		return !h.link.Visible() && len(h.shown) == 1 && shown && imp == widget.MediumImportance && !h.rowUI[1].box.Visible()
	})
}

func TestGoldenHQ(t *testing.T) {
	src := fakeHQ{ch: make(chan model.OverviewUpdate, 1)}
	w := newTestWindow(t, 1024, 600)
	h := build(t, func(ctx context.Context) *HQ { return NewHQ(ctx, w, src) })
	src.ch <- model.OverviewUpdate{Full: true, Lines: hqDemo}
	waitLoaded(t, h.Loaded())
	assertGolden(t, "hq.xml", w)
}

func TestFitHQ(t *testing.T) { inEachLanguage(t, fitHQ) }

// fitHQ checks head office's table, a line in trouble and the totals, at
// every display size.
func fitHQ(t *testing.T) {
	src := fakeHQ{ch: make(chan model.OverviewUpdate, 1)}
	w := newTestWindow(t, 1280, 720)
	h := build(t, func(ctx context.Context) *HQ { return NewHQ(ctx, w, src) })
	src.ch <- model.OverviewUpdate{Full: true, Lines: hqDemo}
	waitLoaded(t, h.Loaded())
	checkSizes(t, w, nil)
}

// A line the host cannot read now says so by its name and is red among
// the lines needing attention, its figures as last read; read again, it
// is calm again.
func TestHQScreenStaleLine(t *testing.T) {
	src := fakeHQ{ch: make(chan model.OverviewUpdate, 4)}
	w := newTestWindow(t, 1024, 600)
	h := build(t, func(ctx context.Context) *HQ { return NewHQ(ctx, w, src) })
	gz := hqDemo[3]
	gz.Stale = true
	src.ch <- model.OverviewUpdate{Full: true, Lines: []model.BranchOverview{hqDemo[0], gz}}
	waitLoaded(t, h.Loaded())
	WithUI(func() {
		cells, imp, _ := hqRowOf(h, "GZ001")
		if got := hqCodes(h); len(got) != 2 || got[0] != "GZ001" {
			t.Errorf("order %v, want the stale GZ001 first", got)
		}
		if cells[1] != "广州分行（暂无数据）" || cells[4] != "4" || imp != widget.DangerImportance {
			t.Errorf("stale GZ001 %v (%v)", cells, imp)
		}
	})
	src.ch <- model.OverviewUpdate{Lines: []model.BranchOverview{hqDemo[3]}}
	waitFor(t, "GZ001 read again", func() bool {
		cells, imp, _ := hqRowOf(h, "GZ001")
		return cells[1] == "广州分行" && imp == widget.MediumImportance
	})
}

// While the link is lost the lines stay as last received: a wait does not
// go on growing for a customer who may have been called meanwhile, and no
// row moves to the top on a wait the screen only supposes.
func TestHQScreenFrozenWhileDown(t *testing.T) {
	var mu sync.Mutex
	clock := testNow
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
	hqNow = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	defer func() { hqNow = frozenHQ }()
	src := fakeHQ{ch: make(chan model.OverviewUpdate, 4)}
	w := newTestWindow(t, 1024, 600)
	h := build(t, func(ctx context.Context) *HQ { return NewHQ(ctx, w, src) })
	src.ch <- model.OverviewUpdate{Full: true, Lines: []model.BranchOverview{
		{Code: "A001", Name: "甲", OpenWindows: 2},
		{Code: "B001", Name: "乙", Waiting: 1, OpenWindows: 2, LongestWait: 18 * time.Minute},
	}}
	waitLoaded(t, h.Loaded())
	advance(90 * time.Second)
	WithUI(h.redraw)
	if cells, _, _ := hqRowOf(h, "B001"); cells[5] != "19 分钟" {
		t.Fatalf("B001 aged 90 s while up: %v", cells)
	}
	src.ch <- model.OverviewUpdate{Down: true}
	waitFor(t, "the lost link", func() bool { return h.link.Visible() })
	advance(10 * time.Minute)
	WithUI(func() {
		h.redraw()
		cells, _, _ := hqRowOf(h, "B001")
		if got := hqCodes(h); cells[5] != "19 分钟" || len(got) != 2 || got[0] != "A001" {
			t.Errorf("ten minutes down: B001 %v, order %v; want 19 分钟 and A001 first, as last received", cells, got)
		}
	})
}

// A line the host cannot read now does not age on screen either: whoever
// waited when it was last read may have been called since.
func TestHQScreenStaleDoesNotAge(t *testing.T) {
	var mu sync.Mutex
	clock := testNow
	hqNow = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	defer func() { hqNow = frozenHQ }()
	src := fakeHQ{ch: make(chan model.OverviewUpdate, 1)}
	w := newTestWindow(t, 1024, 600)
	h := build(t, func(ctx context.Context) *HQ { return NewHQ(ctx, w, src) })
	src.ch <- model.OverviewUpdate{Full: true, Lines: []model.BranchOverview{
		{Code: "C001", Name: "丙", Waiting: 1, LongestWait: 5 * time.Minute, Stale: true}}}
	waitLoaded(t, h.Loaded())
	mu.Lock()
	clock = clock.Add(10 * time.Minute)
	mu.Unlock()
	WithUI(func() {
		h.redraw()
		if cells, _, _ := hqRowOf(h, "C001"); cells[5] != "5 分钟" {
			t.Errorf("a stale line ten minutes on: %v, want its wait as last read", cells)
		}
	})
}
