package screens

import (
	"context"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"jiaohao/model"
)

// hqReportCall is what the report form asked the host for.
type hqReportCall struct {
	codes    []string
	from, to string
}

// Head office's report: the button opens the form; days and codes are
// checked on this PC first (no request for a bad form), a good form asks
// once with the codes as the host keeps them, says where the PDF is and
// opens it, and a refusal is its sentence.
func TestHQReportForm(t *testing.T) {
	src := fakeHQ{ch: make(chan model.OverviewUpdate, 1)}
	w := newTestWindow(t, 1024, 600)
	var mu sync.Mutex
	var calls []hqReportCall
	var opened []string
	fail := error(nil)
	write := func(_ context.Context, codes []string, from, to string) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, hqReportCall{codes, from, to})
		if fail != nil {
			return "", fail
		}
		return "/reports/jiaohao-branches-" + from + "_" + to + ".pdf", nil
	}
	open := func(path string) error { mu.Lock(); opened = append(opened, path); mu.Unlock(); return nil }
	h := build(t, func(ctx context.Context) *HQ {
		h := NewHQ(ctx, w, src)
		h.AddReport(w, write, open)
		return h
	})
	src.ch <- model.OverviewUpdate{Full: true, Lines: hqDemo}
	waitLoaded(t, h.Loaded())
	r := h.report
	day := func(s string) *time.Time { d, _ := time.Parse(time.DateOnly, s); return &d }
	asked := func() int { mu.Lock(); defer mu.Unlock(); return len(calls) }

	WithUI(func() {
		if len(h.tools.Objects) != 1 {
			t.Fatalf("title row tools: %d, want the report button", len(h.tools.Objects))
		}
		test.Tap(r.run)
		if r.msg.Text != tr("reports.pick_dates") {
			t.Errorf("no days: %q", r.msg.Text)
		}
		r.from.SetDate(day("2026-11-30"))
		r.to.SetDate(day("2026-11-01"))
		test.Tap(r.run)
		if r.msg.Text != tr("hq.report_order") {
			t.Errorf("last day before the first: %q", r.msg.Text)
		}
		r.to.SetDate(day("2026-11-30"))
		r.branches.SetText("B001, b001")
		test.Tap(r.run)
		if r.msg.Text == "" || r.msg.Text == tr("reports.working") {
			t.Errorf("a code twice: %q", r.msg.Text)
		}
	})
	if n := asked(); n != 0 {
		t.Fatalf("a bad form asked the host %d times", n)
	}

	WithUI(func() {
		r.from.SetDate(day("2026-11-01"))
		r.branches.SetText(" bj001,B001 ")
		test.Tap(r.run)
		if !r.run.Disabled() {
			t.Error("the button is still on while the report is made")
		}
	})
	want := "/reports/jiaohao-branches-2026-11-01_2026-11-30.pdf"
	waitFor(t, "the report written", func() bool { return r.msg.Text == tr("reports.done", kv("Path", want)) && !r.run.Disabled() })
	mu.Lock()
	if len(calls) != 1 || len(calls[0].codes) != 2 || calls[0].codes[0] != "BJ001" || calls[0].codes[1] != "B001" ||
		calls[0].from != "2026-11-01" || calls[0].to != "2026-11-30" || len(opened) != 1 || opened[0] != want {
		t.Errorf("asked %+v, opened %v", calls, opened)
	}
	fail = model.Errorf(model.EInvalidInput, "没有代码为 X 的网点 (no branch has the code X)")
	mu.Unlock()

	WithUI(func() {
		r.branches.SetText("")
		test.Tap(r.run)
	})
	waitFor(t, "the refusal", func() bool { return r.msg.Text == errText(fail) && !r.run.Disabled() })
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 2 || calls[1].codes != nil || len(opened) != 1 {
		t.Errorf("an empty list is every branch (nil codes): %+v; opened %v", calls, opened)
	}
}
