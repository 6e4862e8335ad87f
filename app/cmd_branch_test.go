package app

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/screens"
)

// runOK runs a command that must succeed and returns its output.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// `branch add` creates a branch by code (or copies one), `branch list`
// prints one line per branch starting with its code, `branch set` renames
// one; a bad code, a taken code or an unknown branch is one sentence and
// an exit code, and changes nothing.
func TestBranchCommand(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	if got := runOK(t, "branch", "list", "--db", dsn); !strings.HasPrefix(got, "B001\t") || strings.Count(got, "\n") != 1 {
		t.Fatalf("a new database's branches: %q", got)
	}
	runOK(t, "settings", "colors", "--db", dsn, "--value", "background=#0a1628&number=#ffd54f&highlight=#b71c1c&text=#ffffff")
	if got := runOK(t, "branch", "add", "--db", dsn, "--code", "bj001", "--name", "北京分行", "--from", "B001"); got != "BJ001\t北京分行\tAsia/Shanghai\n" {
		t.Fatalf("branch add printed %q", got)
	}
	runOK(t, "branch", "add", "--db", dsn, "--code", "SH001", "--name", "上海分行", "--tz", "Asia/Tokyo")
	for _, bad := range []struct {
		args []string
		exit int
		says string
	}{
		{[]string{"add", "--code", "北京", "--name", "x"}, 2, "branch code"},
		{[]string{"add", "--name", "x"}, 2, "--code"},
		{[]string{"add", "--code", "BJ001", "--name", "又一个"}, 1, "taken"},
		{[]string{"add", "--code", "GZ001", "--name", "广州", "--from", "XX1"}, 1, "XX1"},
		{[]string{"add", "--code", "GZ001", "--name", "广州", "--tz", "Mars/Base"}, 2, "time zone"},
		{[]string{"set", "--name", "x"}, 2, "B001, BJ001, SH001"},
		{[]string{"set", "--branch", "ZZ1", "--name", "x"}, 1, "ZZ1"},
		{[]string{"drop"}, 2, "usage"},
	} {
		var out, errb bytes.Buffer
		code := run(append(append([]string{"branch"}, bad.args...), "--db", dsn), &out, &errb)
		if code != bad.exit || !strings.Contains(errb.String(), bad.says) || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
			t.Fatalf("branch %v: exit %d, %q; want exit %d saying %q in one line", bad.args, code, errb.String(), bad.exit, bad.says)
		}
	}
	runOK(t, "branch", "set", "--db", dsn, "--branch", "sh001", "--name", "上海浦东")
	lines := strings.Split(strings.TrimSpace(runOK(t, "branch", "list", "--db", dsn)), "\n")
	want := []string{"B001\t营业网点\tAsia/Shanghai", "BJ001\t北京分行\tAsia/Shanghai", "SH001\t上海浦东\tAsia/Tokyo"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Fatalf("branch list:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	bj := openBranchT(t, dsn, "BJ001")
	if set, _ := bj.Settings(context.Background()); !set.Look.Set {
		t.Fatal("branch add --from did not copy the colours setting")
	}
}

// Every command that works on one branch takes --branch CODE. With no
// flag on a database of several it asks for one in one sentence listing
// the codes; an unknown code is one sentence too; with the flag it works
// on that branch and leaves the other alone.
func TestBranchFlagOnEachCommand(t *testing.T) {
	dir := t.TempDir()
	dsn := daotest.SQLiteDSN(t)
	runOK(t, "branch", "add", "--db", dsn, "--code", "BJ001", "--name", "北京分行")
	today := time.Now().In(time.FixedZone("CST", 8*3600))
	yesterday := today.AddDate(0, 0, -1).Format(time.DateOnly)
	colors := "background=#0a1628&number=#ffd54f&highlight=#b71c1c&text=#ffffff"
	ctx := context.Background()
	// What a command prints of the branch's own figures: BJ001's five
	// tickets of yesterday, which branch 1 does not have.
	says := map[string]string{"report": "取号 5，", "healthcheck": "取号 5，"}
	for _, c := range []struct {
		name  string
		args  []string
		check func(t *testing.T, b1, b2 *sqlstore.GormStore)
	}{
		{"token add", []string{"token", "add", "--role", "kiosk", "--name", "k2"}, func(t *testing.T, b1, b2 *sqlstore.GormStore) {
			t1, _ := b1.Terminals(ctx)
			t2, _ := b2.Terminals(ctx)
			if len(t1) != 0 || len(t2) != 1 || t2[0].Name != "k2" {
				t.Fatalf("terminals %d and %v", len(t1), t2)
			}
		}},
		{"token list", []string{"token", "list"}, nil},
		{"seed-day", []string{"seed-day", "--date", yesterday, "--tickets", "5"}, func(t *testing.T, b1, b2 *sqlstore.GormStore) {
			if n1, n2 := countTickets(t, b1), countTickets(t, b2); n1 != 0 || n2 != 5 {
				t.Fatalf("tickets %d and %d, want 0 and 5", n1, n2)
			}
		}},
		{"report", []string{"report", "--date", yesterday, "--out", filepath.Join(dir, "r.pdf")}, nil},
		{"archive", []string{"archive", "--before", today.Format(time.DateOnly)}, func(t *testing.T, b1, b2 *sqlstore.GormStore) {
			if n := countTickets(t, b2); n != 0 {
				t.Fatalf("branch 2 still has %d live tickets of yesterday", n)
			}
		}},
		{"healthcheck", []string{"healthcheck", "--date", yesterday, "--dir", dir}, nil},
		{"settings colors", []string{"settings", "colors", "--value", colors}, func(t *testing.T, b1, b2 *sqlstore.GormStore) {
			s1, _ := b1.Settings(ctx)
			s2, _ := b2.Settings(ctx)
			if s1.Look.Set || !s2.Look.Set {
				t.Fatalf("colours %v and %v", s1.Look, s2.Look)
			}
		}},
		{"settings logo", []string{"settings", "logo", "--clear"}, nil},
		{"staff list", []string{"staff", "list"}, nil},
		{"bench", []string{"bench", "--tickets", "10", "--windows", "2"}, func(t *testing.T, b1, b2 *sqlstore.GormStore) {
			if n1, n2 := countTickets(t, b1), countTickets(t, b2); n1 != 0 || n2 == 0 {
				t.Fatalf("bench tickets %d and %d, want none in branch 1", n1, n2)
			}
		}},
		{"migrate", []string{"migrate"}, nil},
		{"branch set", []string{"branch", "set", "--tz", "Asia/Tokyo"}, func(t *testing.T, b1, b2 *sqlstore.GormStore) {
			if b1.Location().String() != "Asia/Shanghai" || b2.Location().String() != "Asia/Tokyo" {
				t.Fatalf("zones %s and %s", b1.Location(), b2.Location())
			}
		}},
		{"serve", []string{"serve", "--listen", "127.0.0.1:0"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(c.args, "--db", dsn)
			var out, errb bytes.Buffer
			if c.name != "migrate" { // the tables are the whole database's: migrate needs no branch
				if code := run(args, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--branch") || !strings.Contains(errb.String(), "B001, BJ001") {
					t.Fatalf("no --branch on two branches: exit %d, %q", code, errb.String())
				}
			}
			errb.Reset()
			if code := run(append(args, "--branch", "GZ009"), &out, &errb); code != 1 || !strings.Contains(errb.String(), "GZ009") {
				t.Fatalf("an unknown branch: exit %d, %q", code, errb.String())
			}
			errb.Reset()
			if code := run(append(args, "--branch", "bj-"), &out, &errb); code != 1 && code != 2 || errb.Len() == 0 {
				t.Fatalf("a code of no branch: exit %d, %q", code, errb.String())
			}
			if c.name == "serve" {
				return // a serving process runs until stopped: TestBranchesServeIsolated serves both
			}
			if got := runOK(t, append(args, "--branch", "bj001")...); !strings.Contains(got, says[c.name]) {
				t.Fatalf("%s for BJ001 printed %q, want %q", c.name, got, says[c.name])
			}
			if c.check != nil {
				c.check(t, openBranchT(t, dsn, "B001"), openBranchT(t, dsn, "BJ001"))
			}
		})
	}
}

func openBranchT(t *testing.T, dsn, code string) *sqlstore.GormStore {
	t.Helper()
	s, err := sqlstore.OpenBranch(context.Background(), dsn, code)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func countTickets(t *testing.T, s *sqlstore.GormStore) int64 {
	t.Helper()
	var n int64
	if err := s.DB().Raw("SELECT COUNT(*) FROM ticket WHERE branch_id = ?", s.BranchID()).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// The desktop program on a shared database works for the branch its setup
// names, and on a database of several without one it says which to name.
func TestDesktopWorksForItsBranch(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	runOK(t, "branch", "add", "--db", dsn, "--code", "BJ001", "--name", "北京分行")
	ctx := context.Background()
	if _, err := connect(ctx, Config{Role: "kiosk", Mode: screens.ModeDB, DSN: dsn}, t.Logf); model.ErrorCode(err) != model.EInvalidInput || !strings.Contains(err.Error(), "B001, BJ001") {
		t.Fatalf("no branch on two: %v", err)
	}
	be, err := connect(ctx, Config{Role: "kiosk", Mode: screens.ModeDB, DSN: dsn, Branch: "BJ001"}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer be.close()
	snap, err := be.st.Snapshot(ctx)
	if err != nil || snap.Branch != "北京分行" {
		t.Fatalf("the kiosk works for %q (%v), want 北京分行", snap.Branch, err)
	}
	if _, err := be.st.TakeTicket(ctx, "A", 0, "kiosk"); err != nil {
		t.Fatal(err)
	}
	if n1, n2 := countTickets(t, openBranchT(t, dsn, "B001")), countTickets(t, openBranchT(t, dsn, "BJ001")); n1 != 0 || n2 != 1 {
		t.Fatalf("tickets %d and %d, want the take in BJ001", n1, n2)
	}
}

// `branch overview` prints each branch's line, its code first, with its
// own queue's figures only.
func TestBranchOverviewCommand(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	runOK(t, "branch", "add", "--db", dsn, "--code", "BJ001", "--name", "北京分行")
	bj := openBranchT(t, dsn, "BJ001")
	for range 2 {
		if _, err := bj.TakeTicket(context.Background(), "A", 0, "test"); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(runOK(t, "branch", "overview", "--db", dsn)), "\n")
	if len(lines) != 3 {
		t.Fatalf("overview:\n%s", strings.Join(lines, "\n"))
	}
	b1, b2 := strings.Fields(lines[1]), strings.Fields(lines[2])
	if b1[0] != "B001" || b1[2] != "0" || b1[4] != "4" || b2[0] != "BJ001" || b2[1] != "北京分行" || b2[2] != "2" || b2[3] != "0" || b2[4] != "4" {
		t.Fatalf("overview lines %q and %q", lines[1], lines[2])
	}
}

// The demo on a database of several branches asks which, as every other
// command does, instead of filling branch 1's queue with demo customers;
// named, it fills only that branch.
func TestDemoNamesItsBranch(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	runOK(t, "branch", "add", "--db", dsn, "--code", "BJ001", "--name", "北京分行")
	ctx := context.Background()
	if d, err := openDemo(ctx, dsn, "", t.Logf); model.ErrorCode(err) != model.EInvalidInput || !strings.Contains(err.Error(), "B001, BJ001") {
		if err == nil {
			d.close()
		}
		t.Fatalf("the demo on two branches with none named: %v", err)
	}
	d, err := openDemo(ctx, dsn, "bj001", t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	d.close()
	if n1, n2 := countTickets(t, openBranchT(t, dsn, "B001")), countTickets(t, openBranchT(t, dsn, "BJ001")); n1 != 0 || n2 == 0 {
		t.Fatalf("demo tickets %d in B001 and %d in BJ001, want them all in BJ001", n1, n2)
	}
}
