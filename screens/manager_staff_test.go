package screens

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// The manager adds a clerk, is refused an empty number and a duplicate
// with one sentence and nothing added, disables the account, and turns
// the hall's show_staff on.
func TestManagerStaffPage(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	w := newTestWindow(t, 1000, 700)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	p := m.staff
	waitFor(t, "the empty list", func() bool { return rowText(p) == "还没有员工账号" })
	fill := func(number, name, pass string) {
		WithUI(func() {
			p.number.SetText(number)
			p.name.SetText(name)
			p.pass.SetText(pass)
			p.services.SetText("A B")
			test.Tap(p.create)
		})
	}
	fill("1001", "李娜", "clerk-pass")
	waitFor(t, "the new clerk", func() bool { return rowText(p) == "1001 李娜 · 启用 · A B" })
	fill("", "王强", "clerk-pass")
	waitFor(t, "an empty number refused", func() bool { return strings.Contains(p.msg.Text, "工号须为") })
	fill("1001", "王强", "clerk-pass")
	waitFor(t, "a duplicate refused", func() bool { return strings.Contains(p.msg.Text, "已存在") })
	if list, _ := st.StaffList(ctx); len(list) != 1 {
		t.Fatalf("staff after refused input: %+v", list)
	}
	WithUI(func() { p.setEnabled("1001", false) })
	waitFor(t, "disabled", func() bool { return rowText(p) == "1001 李娜 · 已停用 · A B" })
	if _, err := st.SignIn(ctx, 1, "1001", "clerk-pass"); model.ErrorCode(err) != model.EStaffDisabled {
		t.Fatalf("a disabled clerk signed in: %v", err)
	}
	waitFor(t, "the setting shown", func() bool { return p.showHall.OnChanged != nil && !p.showHall.Checked })
	WithUI(func() { p.msg.SetText(""); p.showHall.SetChecked(true) })
	waitFor(t, "show_staff saved", func() bool { return p.msg.Text == "已保存" })
	if s, _ := st.Settings(ctx); !s.ShowStaff {
		t.Fatal("show_staff not saved")
	}
}

// rowText is the staff list's first line (UI goroutine: waitFor runs it there).
func rowText(p *staffPage) string {
	if len(p.rows.Objects) == 0 {
		return ""
	}
	switch o := p.rows.Objects[0].(type) {
	case *widget.Label:
		return o.Text
	case *fyne.Container:
		for _, c := range o.Objects {
			if l, ok := c.(*widget.Label); ok {
				return l.Text
			}
		}
	}
	return ""
}

// An account locked by wrong passwords says so in the manager's list,
// where the reset that lifts the lock is.
func TestManagerStaffPageShowsTheLock(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	if _, err := st.AddStaff(ctx, model.Staff{Number: "1002", Name: "王强"}, "clerk-pass"); err != nil {
		t.Fatal(err)
	}
	for range model.StaffLockAfter {
		st.SignIn(ctx, 1, "1002", "wrong-pass")
	}
	w := newTestWindow(t, 1000, 700)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	WithUI(func() { m.staff.load() })
	waitFor(t, "the lock shown", func() bool { return rowText(m.staff) == "1002 王强 · 启用 · 已锁定 · 窗口的全部业务" })
}
