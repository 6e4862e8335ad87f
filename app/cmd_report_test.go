package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
)

// cli runs jiaohao with args as the command line would.
func cli(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestReportRejectsBadInput: each mistake is one sentence on stderr, a
// non-zero exit, and no file (not even a temporary one) left behind.
func TestReportRejectsBadInput(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	dir := t.TempDir()
	pdf := filepath.Join(dir, "r.pdf")
	for _, c := range []struct {
		name string
		args []string
		says string
	}{
		{"malformed date", []string{"--date", "2026-02-30", "--out", pdf}, "2026-02-30"},
		{"not a date", []string{"--date", "yesterday", "--out", pdf}, "YYYY-MM-DD"},
		{"inverted range", []string{"--from", "2026-03-05", "--to", "2026-03-01", "--out", pdf}, "inverted"},
		{"half a range", []string{"--from", "2026-03-05", "--out", pdf}, "--from"},
		{"missing folder", []string{"--date", "2026-03-02", "--out", filepath.Join(dir, "no", "r.pdf")}, "cannot write"},
		{"output is a folder", []string{"--date", "2026-03-02", "--out", dir}, "directory"},
		{"unwritable csv", []string{"--date", "2026-03-02", "--out", pdf, "--csv", filepath.Join(dir, "no", "r.csv")}, "cannot write"},
		{"no output", []string{"--date", "2026-03-02"}, "--out"},
		{"bad language", []string{"--date", "2026-03-02", "--out", pdf, "--lang", "fr"}, "fr"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := cli(append([]string{"report", "--db", dsn}, c.args...)...)
			if code == 0 {
				t.Fatalf("exit 0 (stdout %q)", stdout)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.Contains(stderr, c.says) || strings.Contains(stderr, "goroutine") {
				t.Errorf("stderr should be one sentence mentioning %q, got %q", c.says, stderr)
			}
			if files, _ := os.ReadDir(dir); len(files) != 0 {
				t.Errorf("files left behind: %v", names(files))
			}
		})
	}
}

func names(files []os.DirEntry) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Name())
	}
	return out
}

// TestSeedReportArchiveFromTheCommandLine runs the three tools the way a
// manager would and checks that archiving leaves the report unchanged.
func TestSeedReportArchiveFromTheCommandLine(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	dir := t.TempDir()
	if code, out, errs := cli("seed-day", "--db", dsn, "--date", "2026-03-02", "--tickets", "40"); code != 0 {
		t.Fatalf("seed-day: %d %s %s", code, out, errs)
	}
	if code, _, errs := cli("seed-day", "--db", dsn, "--date", "2026-03-02", "--tickets", "5"); code != 2 {
		t.Errorf("seeding a filled day: exit %d (%s), want 2", code, errs)
	}
	report := func(name string) string {
		t.Helper()
		pdf, csv := filepath.Join(dir, name+".pdf"), filepath.Join(dir, name+".csv")
		code, _, errs := cli("report", "--db", dsn, "--date", "2026-03-02", "--out", pdf, "--csv", csv, "--lang", "en")
		if code != 0 {
			t.Fatalf("report: %d %s", code, errs)
		}
		if b, _ := os.ReadFile(pdf); !bytes.HasPrefix(b, []byte("%PDF-")) {
			t.Fatalf("%s is not a PDF", pdf)
		}
		b, _ := os.ReadFile(csv)
		if !strings.Contains(string(b), "\ntotals,40,") {
			t.Fatalf("the CSV does not count 40 tickets:\n%s", b)
		}
		// The first data row holds the generation time, which moves on.
		_, rest, _ := strings.Cut(string(b), "\ntotals,")
		return rest
	}
	before := report("before")
	for i, want := range []string{" 40 ", " 0 "} {
		code, out, errs := cli("archive", "--db", dsn, "--before", "2026-03-03", "--batch", "9")
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("archive run %d: %d %q %s; want %q moved", i+1, code, out, errs, want)
		}
	}
	if after := report("after"); after != before {
		t.Errorf("the report changed after archiving:\n%s\n---\n%s", before, after)
	}
	if code, _, errs := cli("archive", "--db", dsn, "--before", "03/03/2026"); code != 2 || !strings.Contains(errs, "YYYY-MM-DD") {
		t.Errorf("archive with a malformed date: %d %s", code, errs)
	}
}
