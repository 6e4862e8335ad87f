package reports_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"jiaohao/app/demodata"
	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

const seededDay = "2026-03-02"

// seed plays a day and returns what the generator did.
func seed(t testing.TB, st *sqlstore.GormStore, date string, n int) demodata.DaySummary {
	t.Helper()
	sum, err := demodata.Day(context.Background(), st, demodata.DayConfig{Date: date, Tickets: n})
	if err != nil {
		t.Fatalf("seed %s: %v", date, err)
	}
	return sum
}

// closedAt is a fixed generation time: the morning after the period.
func closedAt(st *sqlstore.GormStore, date string) time.Time {
	d, _ := time.ParseInLocation("2006-01-02", date, st.Location())
	return d.AddDate(0, 0, 1).Add(8 * time.Hour)
}

func generate(t testing.TB, st *sqlstore.GormStore, from, to string) reports.Report {
	t.Helper()
	p, err := reports.NewPeriod(from, to, st.Location())
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Generate(context.Background(), st, p, reports.Options{Now: closedAt(st, to)})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestReportFiguresEqualTheTicketLog is the report's contract: on a seeded
// day every figure equals an independent count over the raw rows, and the
// totals equal what the generator itself did.
func TestReportFiguresEqualTheTicketLog(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		sum := seed(t, st, seededDay, 260)
		r := generate(t, st, seededDay, seededDay)
		t.Logf("totals %+v", r.Totals)
		compare(t, r, expect(t, st, seededDay, seededDay, closedAt(st, seededDay)))
		got := map[model.Status]int{model.Done: r.Totals.Done, model.Passed: r.Totals.Passed,
			model.Cancelled: r.Totals.Cancelled, model.Waiting: r.Totals.Waiting, model.Called: r.Totals.Called,
			model.Serving: r.Totals.Serving}
		for s, n := range got {
			if sum.ByStatus[s] != n {
				t.Errorf("%v: report %d, generator %d", s, n, sum.ByStatus[s])
			}
		}
		// seed-day gives one number in twenty at a window (窗口代取).
		if len(r.Sources) != 2 || r.Sources[0] != (reports.SourceCount{Source: model.SourceKiosk, Count: 247}) ||
			r.Sources[1] != (reports.SourceCount{Source: model.SourceWindow, Count: 13}) {
			t.Errorf("by source %+v, want 247 at the kiosk and 13 at a window", r.Sources)
		}
		// Every number keeps the estimate it was given at the take, so
		// the comparison is not over an empty sample.
		if r.Estimate.Compared < r.Totals.Done {
			t.Errorf("estimate compared on %d tickets, %d were served", r.Estimate.Compared, r.Totals.Done)
		}
		t.Logf("estimate accuracy %+v", r.Estimate)
		// Every window had a clerk signed in all day and window 1 a
		// relief after lunch: the per-staff table holds them all, and
		// their served tickets are every one finished.
		served := 0
		for _, s := range r.Staff {
			served += s.Served
		}
		if len(r.Staff) != 5 || served != r.Totals.Done {
			t.Errorf("per staff %+v: want 5 clerks serving all %d done tickets", r.Staff, r.Totals.Done)
		}
		if r.Totals.Taken != 260 || r.Branch == "" {
			t.Errorf("taken %d of 260, branch %q", r.Totals.Taken, r.Branch)
		}
		var paused time.Duration
		for _, w := range r.Windows {
			paused += w.Paused
		}
		if paused < time.Hour { // every window takes a lunch pause of 30–45 min
			t.Errorf("paused time %v: the lunch pauses were not counted", paused)
		}
		// The neighbouring days are empty: the range must not leak.
		if r := generate(t, st, "2026-03-03", "2026-03-31"); r.Totals.Taken != 0 {
			t.Errorf("a later range found %d tickets", r.Totals.Taken)
		}
	})
}

// TestArchiveThenReportIsTheSame moves the first of two days to the history
// table in small batches: the reports do not change, and running the
// archive again moves nothing and changes nothing.
func TestArchiveThenReportIsTheSame(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		ctx := context.Background()
		seed(t, st, "2026-03-02", 60)
		seed(t, st, "2026-03-03", 50)
		held := holdAfterClose(t, st, "2026-03-02")
		day1 := generate(t, st, "2026-03-02", "2026-03-02")
		both := generate(t, st, "2026-03-02", "2026-03-03")
		moved, err := st.Archive(ctx, "2026-03-03", 7)
		if err != nil || moved != 61 {
			t.Fatalf("archive moved %d, %v; want 61", moved, err)
		}
		live, hist := count(t, st, "ticket"), count(t, st, "ticket_history")
		if live != 50 || hist != 61 {
			t.Fatalf("after archive: %d live, %d archived; want 50 and 61", live, hist)
		}
		windows, _ := st.Windows(ctx)
		for _, w := range windows {
			if w.CurrentID == held {
				t.Errorf("window %d still holds the archived ticket %d", w.Number, held)
			}
		}
		for _, c := range []struct {
			from, to string
			want     reports.Report
		}{{"2026-03-02", "2026-03-02", day1}, {"2026-03-02", "2026-03-03", both}} {
			if got := generate(t, st, c.from, c.to); !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s..%s after archive:\n got %+v\nwant %+v", c.from, c.to, got.Totals, c.want.Totals)
			}
		}
		compare(t, both, expect(t, st, "2026-03-02", "2026-03-03", closedAt(st, "2026-03-03")))
		if moved, err := st.Archive(ctx, "2026-03-03", 7); err != nil || moved != 0 {
			t.Fatalf("second archive moved %d, %v; want 0", moved, err)
		}
		if count(t, st, "ticket") != 50 || count(t, st, "ticket_history") != 61 {
			t.Fatal("the second archive run changed the tables")
		}
		if got := generate(t, st, "2026-03-02", "2026-03-03"); !reflect.DeepEqual(got, both) {
			t.Error("the report changed after the second archive run")
		}
		if _, err := st.Archive(ctx, "2999-01-01", 0); model.ErrorCode(err) != model.EInvalidInput {
			t.Errorf("archiving the future: %v, want invalid input", err)
		}
	})
}

// holdAfterClose leaves window 1 holding a ticket of date, called at
// 18:00 and never finished, and returns its id.
func holdAfterClose(t *testing.T, st *sqlstore.GormStore, date string) int64 {
	t.Helper()
	ctx := context.Background()
	d, _ := time.ParseInLocation("2006-01-02", date, st.Location())
	now, _ := st.Now(ctx)
	shift := d.Add(18 * time.Hour).Sub(now)
	st.ShiftClock(shift)
	defer st.ShiftClock(-shift)
	tk, err := st.TakeTicket(ctx, "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.SetWindowStatus(ctx, 1, model.WindowOpen); err != nil {
		t.Fatal(err)
	}
	if tk, err = st.CallNext(ctx, 1, ""); err != nil || tk.Window != 1 {
		t.Fatalf("call: %v %+v", err, tk)
	}
	ws, _ := st.Windows(ctx)
	if ws[0].CurrentID != tk.ID {
		t.Fatalf("window 1 holds %d, not %d", ws[0].CurrentID, tk.ID)
	}
	return tk.ID
}

func count(t *testing.T, st *sqlstore.GormStore, table string) int64 {
	t.Helper()
	var n int64
	if err := st.DB().Table(table).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPDFReadsBack renders the seeded day and reads the PDF back with
// pdftotext: the Chinese headings, the branch name and the day's totals
// are there, and --lang en gives English headings.
func TestPDFReadsBack(t *testing.T) {
	tool := requireTool(t, "pdftotext")
	st := daotest.SQLite(t)
	seed(t, st, seededDay, 80)
	r := generate(t, st, seededDay, seededDay)
	zh := pdfText(t, tool, r, reports.LangZH)
	for _, want := range []string{"网点业务统计报表", "总量", "分业务统计", "分窗口统计", "分时段取号量", "等待时长分布",
		"过号率", "状态核查", r.Branch, "2026-03-02", "第1页/共3页", "第3页/共3页",
		"分员工统计", squash(r.Staff[0].Number + " " + r.Staff[0].Name), "客户满意度", "评价率", "非常满意", "不满意"} {
		if !strings.Contains(squash(zh), want) {
			t.Errorf("the PDF text lacks %q", want)
		}
	}
	tt := r.Totals
	totals := strings.Join([]string{itoa(tt.Taken), itoa(tt.Done), itoa(tt.Passed), itoa(tt.Cancelled),
		itoa(tt.Waiting), itoa(tt.Called), itoa(tt.Serving)}, " ")
	if !strings.Contains(strings.Join(strings.Fields(zh), " "), "取号 已完成 过号 弃号 等待中 已叫号 办理中 "+totals) {
		t.Errorf("the totals row %q is not in the PDF text:\n%s", totals, zh)
	}
	for _, want := range []string{"暂停时长", "午休时长", "重叫数"} { // lunch and requeues have their own columns
		if !strings.Contains(squash(zh), want) {
			t.Errorf("the PDF text lacks the column %q", want)
		}
	}
	en := pdfText(t, tool, r, reports.LangEN)
	for _, want := range []string{"Branch service report", "By service", "By window", "Arrivals per hour", "Page1of3", "Lunch", "Requeued", "By staff", "Customer satisfaction", "Rating rate"} {
		if !strings.Contains(squash(en), squash(want)) {
			t.Errorf("the English PDF text lacks %q", want)
		}
	}
}

// squash drops all white space: pdftotext spaces CJK text unevenly.
func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// TestSaveInDirWritesBothFiles is the manager screen's call: the PDF and
// the CSV land side by side, and a bad range writes nothing.
func TestSaveInDirWritesBothFiles(t *testing.T) {
	st := daotest.SQLite(t)
	dir := t.TempDir()
	path, err := reports.SaveInDir(context.Background(), st, "2026-03-01", "2026-03-31", reports.LangZH, dir)
	if err != nil || filepath.Base(path) != "jiaohao-report-2026-03-01_2026-03-31.pdf" {
		t.Fatalf("%q, %v", path, err)
	}
	for _, f := range []string{path, strings.TrimSuffix(path, ".pdf") + ".csv"} {
		if fi, err := os.Stat(f); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	empty := t.TempDir()
	if _, err := reports.SaveInDir(context.Background(), st, "2026-03-31", "2026-03-01", reports.LangZH, empty); model.ErrorCode(err) != model.EInvalidInput {
		t.Errorf("inverted range: %v", err)
	}
	if files, _ := os.ReadDir(empty); len(files) != 0 {
		t.Errorf("an inverted range left %d files", len(files))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func pdfText(t *testing.T, tool string, r reports.Report, lang reports.Lang) string {
	t.Helper()
	b, err := reports.PDF(r, lang)
	if err != nil {
		t.Fatal(err)
	}
	return readPDF(t, tool, b, "-layout")
}

// readPDF reads the PDF b back with pdftotext in the given mode: -layout
// for the text as laid out, -bbox for each word with its box.
func readPDF(t *testing.T, tool string, b []byte, mode string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.pdf")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, mode, "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// requireTool finds an external program; without it the test is skipped,
// or fails when JIAOHAO_TEST_REQUIRE_TOOLS=1 (CI), so CI cannot pass by
// skipping.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("JIAOHAO_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s is required (JIAOHAO_TEST_REQUIRE_TOOLS=1) but not installed (Debian: poppler-utils)", name)
		}
		t.Skipf("%s not installed (Debian: poppler-utils)", name)
	}
	return path
}

// TestLunchAndRequeuesInTheReport: on a seeded day (whose clerks requeue
// some passed customers) two windows also take a lunch break in the
// evening, one still running when the day ends. Lunch time is reported
// apart from pause time and the requeued tickets per service, both equal
// to the independent count over the raw rows and events.
func TestLunchAndRequeuesInTheReport(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		seed(t, st, seededDay, 260)
		before := generate(t, st, seededDay, seededDay)
		ctx := context.Background()
		d, _ := time.ParseInLocation("2006-01-02", seededDay, st.Location())
		at := func(clock time.Duration, w int, status model.WindowStatus) {
			t.Helper()
			now, _ := st.Now(ctx)
			shift := d.Add(clock).Sub(now)
			st.ShiftClock(shift)
			defer st.ShiftClock(-shift)
			if _, err := st.SetWindowStatus(ctx, w, status); err != nil {
				t.Fatal(err)
			}
		}
		at(20*time.Hour, 1, model.WindowLunch)
		at(20*time.Hour+45*time.Minute, 1, model.WindowOpen)
		at(21*time.Hour, 2, model.WindowLunch) // until the day ends
		r := generate(t, st, seededDay, seededDay)
		compare(t, r, expect(t, st, seededDay, seededDay, closedAt(st, seededDay)))
		lunch, requeued := map[int]time.Duration{}, 0
		for i, w := range r.Windows {
			lunch[w.Number] = w.Lunch
			if w.Paused != before.Windows[i].Paused {
				t.Errorf("window %d: paused %v after lunch, %v before", w.Number, w.Paused, before.Windows[i].Paused)
			}
		}
		if lunch[1].Round(time.Second) != 45*time.Minute || lunch[2].Round(time.Second) != 3*time.Hour || lunch[3] != 0 { // the shifted clock moves on between calls
			t.Errorf("lunch by window %v, want 1: 45m, 2: 3h", lunch)
		}
		for _, s := range r.Services {
			requeued += s.Requeued
		}
		if requeued == 0 {
			t.Error("no requeued ticket counted; the seeded day requeues some passed customers")
		}
		csv, err := reports.CSV(r)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(csv), ",paused_s,lunch_s\r\n") && !strings.Contains(string(csv), ",paused_s,lunch_s\n") {
			t.Errorf("CSV has no lunch column:\n%.600s", csv)
		}
	})
}
