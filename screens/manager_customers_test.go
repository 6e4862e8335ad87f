package screens

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// The manager adds a customer with an ID number (the list then shows its
// last 4 digits only), finds them by that number, edits them, imports a
// GB18030 file with a bad line (the report names it, nothing changes),
// then the file put right, and turns identification on for the kiosks.
func TestManagerCustomersPage(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	w := newTestWindow(t, 1000, 700)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	p := m.custs
	waitFor(t, "the levels", func() bool { return len(p.level.Options) == 3 && len(p.rows.Objects) == 1 })
	WithUI(func() {
		p.number.SetText("C001")
		p.name.SetText("王小明")
		p.phone.SetText("13812345678")
		p.level.SetSelected("贵宾")
		p.idNo.SetText("11010519491231002X")
		test.Tap(p.save)
	})
	waitFor(t, "the new customer", func() bool { return custRow(p) == "C001 王小明 · 贵宾 · 13812345678 · 证件尾号 002X" })
	WithUI(func() { p.query.SetText("11010519491231002X"); p.load() })
	waitFor(t, "found by the ID number", func() bool { return custRow(p) == "C001 王小明 · 贵宾 · 13812345678 · 证件尾号 002X" })
	WithUI(func() { p.query.SetText(""); p.number.SetText(""); p.name.SetText("李四"); test.Tap(p.save) })
	waitFor(t, "an empty number refused", func() bool { return strings.Contains(p.msg.Text, "客户号须为") })

	gb := func(s string) []byte {
		b, err := simplifiedchinese.GB18030.NewEncoder().String(s)
		if err != nil {
			t.Fatal(err)
		}
		return []byte(b)
	}
	WithUI(func() {
		p.importData(gb("客户号,姓名,手机,等级\nK1,张三,13900000001,普通\nK2,李四,13900000002,钻石\n"))
	})
	waitFor(t, "the report", func() bool {
		return strings.Contains(p.report.Text, "第 3 行 等级：没有客户等级“钻石”")
	})
	if list, _ := st.Customers(ctx, "", 0); len(list) != 1 {
		t.Fatalf("%d customers after a refused import", len(list))
	}
	WithUI(func() {
		p.importData(gb("客户号,姓名,手机,等级\nK1,张三,13900000001,普通\nK2,李四,13900000002,贵宾\n"))
	})
	waitFor(t, "imported", func() bool { return strings.Contains(p.msg.Text, "新增 2 位") && p.report.Text == "" })
	if list, _ := st.Customers(ctx, "", 0); len(list) != 3 {
		t.Fatalf("%d customers after the import, want 3", len(list))
	}
	// A level's own name edits its priority.
	WithUI(func() { p.levelName.SetText("贵宾"); p.levelPrio.SetText("2"); test.Tap(p.addLevel) })
	waitFor(t, "the level edited", func() bool { return len(p.levels) == 3 && p.levels[1].Priority == 2 })

	waitFor(t, "the setting shown", func() bool { return p.ident.OnChanged != nil && !p.ident.Checked })
	WithUI(func() { p.msg.SetText(""); p.ident.SetChecked(true) })
	waitFor(t, "saved", func() bool { return p.msg.Text == "已保存" })
	if s, _ := st.Settings(ctx); !s.CustomerIdent {
		t.Fatal("customer_ident not saved")
	}
}

// custRow is the customer list's first line (UI goroutine).
func custRow(p *customersPage) string {
	if len(p.rows.Objects) == 0 {
		return ""
	}
	for _, l := range allTexts(p.rows.Objects[0]) {
		if strings.Contains(l, " · ") {
			return l
		}
	}
	return ""
}
