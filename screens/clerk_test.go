package screens

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// A clerk signs in at the caller: the caller names them, the window
// screen shows them, the hall's row only once the branch turns show_staff
// on; a wrong password is one sentence and signs nobody in; signing out
// clears every screen.
func TestClerkSignInReachesEveryScreen(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	if _, err := st.AddStaff(ctx, model.Staff{Number: "1001", Name: "李娜"}, "clerk-pass"); err != nil {
		t.Fatal(err)
	}
	take(t, st, "A", 1)
	w := newTestWindow(t, 900, 640)
	c := build(t, func(ctx context.Context) *Caller { return NewCaller(ctx, w, st, 1, nil) })
	waitLoaded(t, c.Loaded())
	cw := newTestWindow(t, 800, 480)
	counter := build(t, func(ctx context.Context) *Counter { return NewCounter(ctx, cw, st, 1) })
	waitLoaded(t, counter.Loaded())
	hw := newTestWindow(t, 1280, 720)
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, hw, st, nil) })
	waitLoaded(t, h.Loaded())
	waitFor(t, "nobody signed in", func() bool { return c.clerk.who.Text == "未登录员工" && c.clerk.btn.Text == "员工登录" })

	WithUI(func() { c.clerk.signIn("1001", "wrong-pass") })
	waitFor(t, "the wrong password refused", func() bool { return !c.busy && strings.Contains(c.msg.Text, "工号或密码错误") })
	WithUI(func() {
		if c.clerk.who.Text != "未登录员工" {
			t.Errorf("signed in with a wrong password: %q", c.clerk.who.Text)
		}
	})

	WithUI(func() { c.clerk.signIn("1001", "clerk-pass") })
	waitFor(t, "the caller names the clerk", func() bool { return c.clerk.who.Text == "1001 李娜" && c.clerk.btn.Text == "退出登录" })
	waitFor(t, "the window screen names the clerk", func() bool { return counter.clerk.Text == "1001 李娜" })
	if _, err := st.CallNext(ctx, 1, ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the hall row without the clerk", func() bool {
		return h.list != nil && h.list.rows[0].win.Text != "" && !strings.Contains(h.list.rows[0].win.Text, "李娜")
	})
	if err := st.SetSetting(ctx, "show_staff", "true"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the hall row names the clerk", func() bool { return strings.HasSuffix(h.list.rows[0].win.Text, " · 1001 李娜") })

	WithUI(func() { c.clerk.toggle() }) // signed in: the button signs out
	waitFor(t, "signed out everywhere", func() bool {
		return c.clerk.who.Text == "未登录员工" && counter.clerk.Text == "" && !strings.Contains(h.list.rows[0].win.Text, "李娜")
	})
}

// The clerk's own page: the day's figures, a dash for the rating before
// the day's first, then the average level and the count.
func TestClerkDayCells(t *testing.T) {
	var texts []string
	WithUI(func() {
		for _, o := range dayCells(model.StaffFigures{Served: 3, Passed: 1, AvgService: 150 * time.Second}) {
			texts = append(texts, o.(*widget.Label).Text)
		}
	})
	want := []string{"今日办结", "3", "平均办理时长", model.ClockText(150 * time.Second), "平均评价", "—", "过号数", "1"}
	if !slices.Equal(texts, want) {
		t.Fatalf("day cells %q, want %q", texts, want)
	}
	avg := 3.5
	WithUI(func() {
		texts = nil
		for _, o := range dayCells(model.StaffFigures{Served: 3, AvgRating: &avg, RatingCount: 2}) {
			texts = append(texts, o.(*widget.Label).Text)
		}
	})
	if texts[5] != "3.5 / 4（2 次）" {
		t.Fatalf("rating cell %q", texts[5])
	}
}
