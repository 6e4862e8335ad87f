package screens

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// The clerk's lunch button sends the window to lunch (午休): its own label
// and colour, no calls, and the hall says 午休中; the same button ends it.
func TestCallerLunch(t *testing.T) {
	c, _, _, _ := startCaller(t, 1)
	w := newTestWindow(t, 1280, 720)
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, c.st, &recorder{}) })
	waitLoaded(t, h.Loaded())

	tap(c.lunch)
	waitFor(t, "window 1 at lunch", func() bool {
		return strings.HasSuffix(c.title.Text, "午休") && c.lunch.Text == "结束午休" && !c.busy
	})
	WithUI(func() {
		if c.title.Importance != widget.WarningImportance || !c.call.Disabled() {
			t.Errorf("at lunch: title importance %v, call disabled %v", c.title.Importance, c.call.Disabled())
		}
	})
	waitFor(t, "the hall says window 1 is at lunch", func() bool { return hallLine(h, "1号 午休中    2号 A B V    3号 A B V") })

	tap(c.lunch)
	waitFor(t, "window 1 open again", func() bool { return strings.HasSuffix(c.title.Text, "开放") && !c.busy })
	ws, _ := c.st.Windows(context.Background())
	if ws[0].Status != model.WindowOpen {
		t.Fatalf("window 1 is %v after lunch", ws[0].Status)
	}
	waitFor(t, "the hall lists window 1's services", func() bool { return hallLine(h, "1号 A B V    2号 A B V    3号 A B V") })
}

func hallLine(h *Hall, text string) bool {
	for _, l := range h.list.wins {
		if l.Visible() && l.Text == text {
			return true
		}
	}
	return false
}

// The clerk switches the window's services within what the manager
// allowed; a service outside it is refused in one sentence and nothing
// changes. The hall and the monitor show the switch.
func TestCallerSwitchesServices(t *testing.T) {
	c, _, _, _ := startCaller(t, 1)
	ctx := context.Background()
	if _, err := c.st.SaveWindow(ctx, model.Window{Number: 1, Name: "1号窗口", Services: []string{"A"}, Allowed: []string{"A", "B"}}); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, 1280, 720)
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, c.st, &recorder{}) })
	waitLoaded(t, h.Loaded())
	waitFor(t, "the switch offered", func() bool { return !c.switchB.Disabled() && hallLine(h, "1号 A    2号 A B V    3号 A B V") })

	WithUI(func() { c.switchTo([]string{"B"}) })
	waitFor(t, "window 1 serves B", func() bool { return !c.busy && hallLine(h, "1号 B    2号 A B V    3号 A B V") })
	ws, _ := c.st.Windows(ctx)
	if !slices.Equal(ws[0].Services, []string{"B"}) {
		t.Fatalf("window 1 serves %v", ws[0].Services)
	}
	mw := newTestWindow(t, 1024, 768)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, mw, c.st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	waitFor(t, "the monitor shows window 1 serving B", func() bool {
		lb, ok := m.mon.win.box.Objects[0].(*widget.Label)
		return ok && strings.Contains(lb.Text, "业务 B ·")
	})

	WithUI(func() { c.switchTo([]string{"V"}) })
	waitFor(t, "the refusal", func() bool { return !c.busy && strings.Contains(c.msg.Text, "未获准办理业务 V") })
	if ws, _ := c.st.Windows(ctx); !slices.Equal(ws[0].Services, []string{"B"}) {
		t.Fatalf("a refused switch changed window 1 to %v", ws[0].Services)
	}
}

// A requeued ticket is shown with its mark (重叫) on the caller and on the
// hall's call row when it is called again.
func TestRequeueMarkOnScreens(t *testing.T) {
	c, ann, _, first := startCaller(t, 1)
	w := newTestWindow(t, 1280, 720)
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, c.st, &recorder{}) })
	waitLoaded(t, h.Loaded())
	ctx := context.Background()
	tk := first()
	if err := c.st.SetSetting(ctx, "requeue_offset", "0"); err != nil { // back at the head: called next
		t.Fatal(err)
	}
	if _, err := c.st.CallNext(ctx, 1, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := c.st.Pass(ctx, tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "A001 passed", func() bool { return passedRow(c, "A001") != nil && !c.busy })
	WithUI(func() { c.doRequeue(tk.ID) })
	waitFor(t, "A001 requeued", func() bool { return passedRow(c, "A001") == nil && !c.busy })
	tap(c.call)
	waitFor(t, "A001 called again, marked", showing(c, "A001 重叫", model.Called))
	waitFor(t, "the hall's call row", func() bool { return h.list.rows[0].box.Visible() && h.list.rows[0].num.Text == "A001 重叫" })
	got := ann.all()
	if len(got) == 0 || got[len(got)-1].Requeued != 1 {
		t.Fatalf("announced %+v, want the marked ticket", got)
	}
}

func (r *recorder) all() []model.Ticket {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// A long queue with a window of its service paused is a warning; with the
// window at lunch it is not (a planned break, like a closed window).
func TestHealthIgnoresLunch(t *testing.T) {
	rules := model.ParseSettings(nil).Alerts
	s := model.Snapshot{Services: []model.ServiceCount{{Code: "A", Name: "个人业务", Waiting: rules.Waiting + 1, Enabled: true}},
		Windows: []model.WindowState{{Window: model.Window{Number: 1, Status: model.WindowPaused, Services: []string{"A"}}}}}
	if got := healthWarnings(s, rules); len(got) != 1 {
		t.Fatalf("paused: warnings %q, want one", got)
	}
	s.Windows[0].Status = model.WindowLunch
	if got := healthWarnings(s, rules); len(got) != 0 {
		t.Fatalf("at lunch: warnings %q, want none", got)
	}
}
