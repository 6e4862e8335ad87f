package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// at shifts st's clock to the local time hh:mm of the day days after the
// real today, in the branch zone.
func at(t *testing.T, st *sqlstore.GormStore, days, hh, mm int) {
	t.Helper()
	now, err := st.Now(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	l := now.In(st.Location())
	want := time.Date(l.Year(), l.Month(), l.Day()+days, hh, mm, 0, 0, st.Location())
	st.ShiftClock(want.Sub(now))
}

// files lists a folder's names, sorted ("" for none).
func files(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// Daily check at a shifted clock writes its files: nothing before the set
// time; at it, the day's report and health summary (PDF + CSV) named by
// the date, flagged for the ticket left called; once only, across a
// restart; a day missed while the host was off is checked when it starts;
// on demand rewrites the files.
func TestDailyCheckAtShiftedClockWritesItsFiles(t *testing.T) {
	pdftotext := needTool(t, "pdftotext", "JIAOHAO_TEST_REQUIRE_TOOLS")
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		ctx := context.Background()
		dir := t.TempDir()
		host := newHealthHost(st, dir, "zh", t.Logf)
		at(t, st, 1, 10, 0) // a morning: tomorrow, so every write is after the real now
		var tk [3]model.Ticket
		for i := range tk {
			var err error
			if tk[i], err = st.TakeTicket(ctx, "A", 0, model.SourceKiosk); err != nil {
				t.Fatal(err)
			}
		}
		day := tk[0].BusinessDate
		c, err := st.CallNext(ctx, 1, "")
		if err == nil {
			c, err = st.StartServing(ctx, c.ID, 1)
		}
		if err == nil {
			_, err = st.Finish(ctx, c.ID, 1)
		}
		if err == nil {
			_, err = st.CallNext(ctx, 2, "") // called and never finished (seed 003 §5.4)
		}
		if err != nil {
			t.Fatal(err)
		}

		at(t, st, 0, 19, 59)
		if ran, err := host.tick(ctx); err != nil || slices.ContainsFunc(ran, func(c model.HealthCheck) bool { return c.Date == day }) {
			t.Fatalf("at 19:59 the check of %s ran (%v, %v)", day, ran, err)
		}
		if got := files(t, dir); len(got) != 0 {
			t.Fatalf("before the set time: %v", got)
		}

		at(t, st, 0, 20, 0)
		ran, err := host.tick(ctx)
		if err != nil || len(ran) == 0 || ran[len(ran)-1].Date != day {
			t.Fatalf("at 20:00: ran %v (%v), want the check of %s last", ran, err, day)
		}
		want := model.HealthFiles(day)
		slices.Sort(want)
		if got := files(t, dir); !slices.Equal(got, want) {
			t.Fatalf("files %v, want %v (days without tickets write none)", got, want)
		}
		text, err := exec.Command(pdftotext, "-layout", "-enc", "UTF-8", filepath.Join(dir, "jiaohao-health-"+day+".pdf"), "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(string(text)), "")
		for _, w := range []string{"每日健康检查", day, "需要处理", "1个号码停留在已叫号或办理中", tk[1].Number} {
			if !strings.Contains(flat, w) {
				t.Errorf("the health PDF lacks %q:\n%s", w, text)
			}
		}
		csv, err := os.ReadFile(filepath.Join(dir, "jiaohao-health-"+day+".csv"))
		if err != nil || !strings.Contains(string(csv), "total,,,3,1,1,0,0.0000,false,1,0,0") {
			t.Fatalf("health CSV (%v):\n%s", err, csv)
		}
		last, err := host.LastHealthCheck(ctx)
		if err != nil || last.Date != day || !last.Flagged || last.Stuck != 1 || last.Taken != 3 || last.Dir != dir {
			t.Fatalf("last check %+v (%v)", last, err)
		}

		// Once: a second tick, and a restarted host, leave the day alone.
		for _, f := range files(t, dir) {
			if err := os.Remove(filepath.Join(dir, f)); err != nil {
				t.Fatal(err)
			}
		}
		restarted := newHealthHost(st, dir, "zh", t.Logf)
		for _, h := range []*healthHost{host, restarted} {
			if ran, err := h.tick(ctx); err != nil || len(ran) != 0 {
				t.Fatalf("a day already checked ran again: %v (%v)", ran, err)
			}
		}
		if got := files(t, dir); len(got) != 0 {
			t.Fatalf("files rewritten: %v", got)
		}

		// The host is off at 20:00 the next day and starts the morning after.
		at(t, st, 1, 11, 0)
		next, err := st.TakeTicket(ctx, "A", 0, model.SourceKiosk)
		if err != nil {
			t.Fatal(err)
		}
		at(t, st, 1, 8, 30)
		ran, err = newHealthHost(st, dir, "zh", t.Logf).tick(ctx)
		// The first day, checked at 20:00 before it ended, is checked once
		// more now that it is over; then the missed day.
		if err != nil || len(ran) != 2 || ran[0].Date != day || !ran[0].Flagged || ran[1].Date != next.BusinessDate || ran[1].Flagged || ran[1].Taken != 1 {
			t.Fatalf("after a night off: ran %+v (%v), want the recheck of %s, then the missed %s, not flagged", ran, err, day, next.BusinessDate)
		}

		// On demand rewrites the first day's files.
		c2, err := host.RunHealthCheck(ctx, day)
		if err != nil || !c2.Flagged {
			t.Fatalf("on demand: %+v (%v)", c2, err)
		}
		for _, f := range model.HealthFiles(day) {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("on demand did not rewrite %s: %v", f, err)
			}
		}
	})
}

// Two hosts on one database, each with its own folder, tick at the set
// time together: the day's files are written once, in one folder.
func TestTwoHostsWriteTheDayOnce(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		var hosts [2]*healthHost
		var dirs [2]string
		for i := range hosts {
			st, err := sqlstore.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			at(t, st, 1, 10, 0)
			if i == 0 {
				if _, err := st.TakeTicket(ctx, "A", 0, model.SourceKiosk); err != nil {
					t.Fatal(err)
				}
			}
			at(t, st, 0, 20, 5)
			dirs[i] = t.TempDir()
			hosts[i] = newHealthHost(st, dirs[i], "zh", t.Logf)
		}
		var wg sync.WaitGroup
		for _, h := range hosts {
			wg.Go(func() {
				if _, err := h.tick(ctx); err != nil {
					t.Errorf("tick: %v", err)
				}
			})
		}
		wg.Wait()
		a, b := len(files(t, dirs[0])), len(files(t, dirs[1]))
		if a+b != 4 || (a != 0 && b != 0) {
			t.Fatalf("files in the two folders: %d and %d, want the day's 4 in one", a, b)
		}
	})
}

// Without a folder of its own the host writes under its data folder, in
// the setting's relative name.
func TestHealthFolderIsUnderTheDataFolder(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.SetSetting(context.Background(), "health_check_dir", "reports/daily"); err != nil {
		t.Fatal(err)
	}
	c, err := newHealthHost(st, "", "en", t.Logf).RunHealthCheck(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(filepath.Dir(strings.TrimPrefix(dsn, "sqlite:")), "reports", "daily")
	if c.Dir != want || len(files(t, want)) != 4 {
		t.Fatalf("wrote to %q (%v), want %q", c.Dir, files(t, c.Dir), want)
	}
}

// Two checks of one day at once on the host (the automatic run and "check
// now", or two managers) run one after the other: the second waits for
// the day's lock, so the files and the record are one run's, the one
// that began last, and its renames never interleave with another's.
// The first run is held between its figures and its files until the
// second either waits for the lock or has finished (it would without one).
func TestTwoChecksOfOneDayDoNotMix(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := context.Background()
	dir := t.TempDir()
	host := newHealthHost(st, dir, "zh", t.Logf)
	tk, err := st.TakeTicket(ctx, "A", 0, model.SourceKiosk)
	if err != nil {
		t.Fatal(err)
	}
	day := tk.BusinessDate
	waiting, secondDone := make(chan struct{}), make(chan error, 1)
	var first atomic.Bool
	host.waiting = func(string) { close(waiting) }
	host.saving = func(string) {
		if !first.CompareAndSwap(false, true) {
			return // the second run
		}
		st.ShiftClock(time.Hour) // the second run's figures are an hour later
		go func() { _, err := host.run(ctx, day, "", true); secondDone <- err }()
		select {
		case <-waiting:
		case err := <-secondDone:
			secondDone <- err
		}
	}
	c1, err := host.run(ctx, day, "", true)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-secondDone; err != nil {
		t.Fatal(err)
	}
	last, err := host.LastHealthCheck(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Without the lock the first run, held with its older figures, would
	// finish last over the second's files and record.
	if !last.At.After(c1.At) {
		t.Fatalf("the record is the first run's (%v), not the second's, begun an hour later", last.At)
	}
	stamp := last.At.In(st.Location()).Format(time.RFC3339)
	for _, f := range []string{"jiaohao-health-" + day + ".csv", "jiaohao-report-" + day + ".csv"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !strings.Contains(string(b), stamp) {
			t.Errorf("%s is not the recorded run's (at %s): %v\n%.300s", f, stamp, err, b)
		}
	}
}

// "Check now" without a date checks the last closed business day, and a
// day still open (before its check time) is refused in one sentence and
// recorded nowhere: a mid-day check must not raise a false flag nor hide
// yesterday's.
func TestCheckNowChecksTheLastClosedDay(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := context.Background()
	host := newHealthHost(st, t.TempDir(), "zh", t.Logf)
	at(t, st, 1, 10, 0)
	tk, err := st.TakeTicket(ctx, "A", 0, model.SourceKiosk)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CallNext(ctx, 1, ""); err != nil { // being served: not stuck yet
		t.Fatal(err)
	}
	today := tk.BusinessDate
	if _, err := host.RunHealthCheck(ctx, today); model.ErrorCode(err) != model.EInvalidInput || !strings.Contains(model.ErrorMessage(err), "尚未结束") {
		t.Fatalf("checking the open day gave %v", err)
	}
	if _, err := st.LastHealthCheck(ctx); model.ErrorCode(err) != model.ENotFound {
		t.Fatalf("the refused check was recorded: %v", err)
	}
	yesterday := st.Calendar(ctx).Date(mustNow(t, st).AddDate(0, 0, -1))
	c, err := host.RunHealthCheck(ctx, "")
	if err != nil || c.Date != yesterday {
		t.Fatalf("by default checked %+v (%v), want yesterday", c, err)
	}
	at(t, st, 0, 20, 0) // the check time: today is closed
	if c, err := host.RunHealthCheck(ctx, ""); err != nil || c.Date != today || !c.Flagged {
		t.Fatalf("after the check time: %+v (%v), want today, flagged", c, err)
	}
}

func mustNow(t *testing.T, st *sqlstore.GormStore) time.Time {
	t.Helper()
	now, err := st.Now(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return now
}

// A day checked at its set time while still open is checked once more
// after it ended: a ticket called after the check and left called is in
// the next morning's verdict, and the day is not checked a third time.
func TestDayIsRecheckedOnceAfterItEnds(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		ctx := context.Background()
		host := newHealthHost(st, t.TempDir(), "zh", t.Logf)
		at(t, st, 1, 10, 0)
		tk, err := st.TakeTicket(ctx, "A", 0, model.SourceKiosk)
		if err != nil {
			t.Fatal(err)
		}
		at(t, st, 0, 20, 0)
		ran, err := host.tick(ctx)
		if err != nil || len(ran) == 0 || ran[len(ran)-1].Date != tk.BusinessDate || ran[len(ran)-1].Flagged {
			t.Fatalf("at 20:00: %+v (%v), want the day, fine (its ticket waiting)", ran, err)
		}
		at(t, st, 0, 20, 30)
		if _, err := st.CallNext(ctx, 1, ""); err != nil { // called after the check, never finished
			t.Fatal(err)
		}
		if ran, err := host.tick(ctx); err != nil || len(ran) != 0 {
			t.Fatalf("before the day ended it was checked again: %+v (%v)", ran, err)
		}
		at(t, st, 1, 8, 0)
		ran, err = host.tick(ctx)
		if err != nil || len(ran) != 1 || ran[0].Date != tk.BusinessDate || !ran[0].Flagged || ran[0].Stuck != 1 {
			t.Fatalf("the next morning: %+v (%v), want the day again, one stuck", ran, err)
		}
		last, err := host.LastHealthCheck(ctx)
		if err != nil || last.Date != tk.BusinessDate || last.Stuck != 1 {
			t.Fatalf("last check %+v (%v)", last, err)
		}
		if ran, err := newHealthHost(st, t.TempDir(), "zh", t.Logf).tick(ctx); err != nil || len(ran) != 0 {
			t.Fatalf("rechecked a second time: %+v (%v)", ran, err)
		}
	})
}

// Two branches checked on one PC with one folder (one serve for all, or a
// serve each) write their day's files apart: branch 1 in the folder, as a
// one-branch site always has, another in a folder of its code below it.
func TestHealthFilesOfBranchesApart(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	runOK(t, "branch", "add", "--db", dsn, "--code", "BJ001", "--name", "北京分行")
	yesterday := time.Now().In(time.FixedZone("CST", 8*3600)).AddDate(0, 0, -1).Format(time.DateOnly)
	runOK(t, "seed-day", "--db", dsn, "--branch", "B001", "--date", yesterday, "--tickets", "3")
	runOK(t, "seed-day", "--db", dsn, "--branch", "BJ001", "--date", yesterday, "--tickets", "5")
	dir := t.TempDir()
	ctx := context.Background()
	for _, c := range []struct {
		code, dir string
		taken     int
	}{{"B001", dir, 3}, {"BJ001", filepath.Join(dir, "BJ001"), 5}} {
		got, err := newHealthHost(openBranchT(t, dsn, c.code), dir, "zh", t.Logf).RunHealthCheck(ctx, yesterday)
		if err != nil {
			t.Fatal(err)
		}
		if got.Dir != c.dir || got.Taken != c.taken {
			t.Fatalf("%s's check: %d taken, files in %s; want %d in %s", c.code, got.Taken, got.Dir, c.taken, c.dir)
		}
		for _, f := range got.Files {
			if _, err := os.Stat(filepath.Join(c.dir, f)); err != nil {
				t.Fatalf("%s's %s: %v", c.code, f, err)
			}
		}
	}
}
