package app

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
)

// csvSection reads a CSV file's rows of one section, header first.
func csvSection(t *testing.T, path, section string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rd := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(b), "\ufeff")))
	rd.FieldsPerRecord = -1 // each section has its own columns
	rows, err := rd.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out [][]string
	for _, r := range rows {
		if r[0] == section {
			out = append(out, r[1:])
		}
	}
	return out
}

// TestReportOverBranchesFromTheCommandLine: two branches seeded through
// seed-day --branch; report --branch all and a list write the report over
// them, one code stays that branch's own report.
func TestReportOverBranchesFromTheCommandLine(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	dir := t.TempDir()
	const day = "2026-03-02"
	for _, args := range [][]string{
		{"branch", "add", "--db", dsn, "--code", "BJ001", "--name", "北京分行", "--tz", "Asia/Shanghai"},
		{"seed-day", "--db", dsn, "--branch", "B001", "--date", day, "--tickets", "30", "--customers", "0"},
		{"seed-day", "--db", dsn, "--branch", "bj001", "--date", day, "--tickets", "20", "--customers", "0"},
	} {
		if code, out, errs := cli(args...); code != 0 {
			t.Fatalf("%v: %d %s %s", args, code, out, errs)
		}
	}
	for _, c := range []struct {
		branch string
		codes  []string
	}{{"all", []string{"B001", "BJ001"}}, {"bj001,B001", []string{"BJ001", "B001"}}} {
		pdf, csvPath := filepath.Join(dir, "m.pdf"), filepath.Join(dir, "m.csv")
		code, out, errs := cli("report", "--db", dsn, "--branch", c.branch, "--date", day, "--out", pdf, "--csv", csvPath, "--lang", "en")
		if code != 0 || !strings.Contains(out, "2 个网点") || !strings.Contains(out, "取号 50") {
			t.Fatalf("report --branch %s: %d %q %s", c.branch, code, out, errs)
		}
		if b, _ := os.ReadFile(pdf); !strings.HasPrefix(string(b), "%PDF-") {
			t.Fatalf("%s is not a PDF", pdf)
		}
		rows := csvSection(t, csvPath, "branch")
		if len(rows) != 3 || rows[1][0] != c.codes[0] || rows[2][0] != c.codes[1] {
			t.Fatalf("--branch %s: branch rows %v, want %v", c.branch, rows, c.codes)
		}
		taken := map[string]string{rows[1][0]: rows[1][4], rows[2][0]: rows[2][4]}
		if taken["B001"] != "30" || taken["BJ001"] != "20" || rows[0][4] != "taken" {
			t.Errorf("--branch %s: taken %v", c.branch, taken)
		}
		if total := csvSection(t, csvPath, "total"); len(total) != 2 || total[1][0] != "50" {
			t.Errorf("--branch %s: total %v", c.branch, total)
		}
	}
	one := filepath.Join(dir, "one.csv")
	if code, _, errs := cli("report", "--db", dsn, "--branch", "BJ001", "--date", day, "--out", filepath.Join(dir, "one.pdf"), "--csv", one); code != 0 {
		t.Fatalf("report --branch BJ001: %d %s", code, errs)
	}
	if totals := csvSection(t, one, "totals"); len(totals) != 2 || totals[1][0] != "20" || csvSection(t, one, "branch") != nil {
		t.Errorf("one branch's report: totals %v", totals)
	}
}

// TestReportOverBranchesRefusesBadInput: an unknown code names the codes
// there are; a repeated or malformed code, or several branches with no
// date, are refused before the database is opened (opening it would
// create the SQLite file the DSN names). Nothing is written.
func TestReportOverBranchesRefusesBadInput(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	if code, _, errs := cli("branch", "add", "--db", dsn, "--code", "BJ001", "--name", "北京分行"); code != 0 {
		t.Fatal(errs)
	}
	untouched := filepath.Join(t.TempDir(), "untouched")
	nowhere := "sqlite:" + filepath.Join(untouched, "jiaohao.db")
	dir := t.TempDir()
	pdf, csvPath := filepath.Join(dir, "r.pdf"), filepath.Join(dir, "r.csv")
	for _, c := range []struct {
		name, db, branch, date string
		says                   []string
	}{
		{"unknown code", dsn, "B001,NOPE1,SH9", "2026-03-02", []string{"NOPE1, SH9", "B001, BJ001"}},
		{"twice", nowhere, "B001,b001", "2026-03-02", []string{"twice"}},
		{"empty code", nowhere, "B001,", "2026-03-02", []string{"branch code"}},
		{"all in a list", nowhere, "B001,all", "2026-03-02", []string{"ALL"}},
		{"no date", nowhere, "all", "", []string{"--date"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"report", "--db", c.db, "--branch", c.branch, "--out", pdf, "--csv", csvPath}
			if c.date != "" {
				args = append(args, "--date", c.date)
			}
			code, stdout, stderr := cli(args...)
			if code != 2 {
				t.Fatalf("exit %d (stdout %q, stderr %q), want 2", code, stdout, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			for _, w := range c.says {
				if len(lines) != 1 || !strings.Contains(stderr, w) {
					t.Errorf("stderr should be one sentence mentioning %q, got %q", w, stderr)
				}
			}
			if files, _ := os.ReadDir(dir); len(files) != 0 {
				t.Errorf("files left behind: %v", names(files))
			}
			if _, err := os.Stat(untouched); err == nil {
				t.Errorf("the database %s was opened", nowhere)
			}
		})
	}
}
