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

// TestReportRefusesOneFileUnderTwoNames: --out and --csv naming one file
// in two spellings (relative and absolute, a link, a linked folder) would
// write the CSV over the PDF; it is refused before the database is opened.
func TestReportRefusesOneFileUnderTwoNames(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("out", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("out", "old.pdf"), []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, link := range [][2]string{{"old.pdf", "link.pdf"}, {"out", "linked"}} {
		if err := os.Symlink(link[0], filepath.Join(filepath.Dir(link[1]), link[1])); err != nil {
			t.Fatal(err)
		}
	}
	os.Rename("link.pdf", filepath.Join("out", "link.pdf"))
	nowhere := "sqlite:" + filepath.Join(dir, "never", "jiaohao.db")
	for _, c := range []struct{ name, out, csv string }{
		{"relative and absolute", "out/r.pdf", filepath.Join(dir, "out", "r.pdf")},
		{"a link to the file", "out/old.pdf", "out/link.pdf"},
		{"through a linked folder", "out/r.pdf", "linked/r.pdf"},
	} {
		for _, branch := range []string{"", "all"} {
			t.Run(c.name+" "+branch, func(t *testing.T) {
				args := []string{"report", "--db", nowhere, "--date", "2026-03-02", "--out", c.out, "--csv", c.csv}
				if branch != "" {
					args = append(args, "--branch", branch)
				}
				code, _, stderr := cli(args...)
				if code != 2 || !strings.Contains(stderr, "same file") {
					t.Errorf("exit %d, stderr %q; want 2 and the same file named", code, stderr)
				}
				if got, _ := os.ReadFile(filepath.Join("out", "old.pdf")); string(got) != "kept" {
					t.Errorf("out/old.pdf was overwritten (%d bytes)", len(got))
				}
				if _, err := os.Stat(filepath.Join("out", "r.pdf")); err == nil {
					t.Error("out/r.pdf was written")
				}
			})
		}
	}
}

// TestReportRefusesToWriteOverTheDatabase: --out or --csv naming the
// SQLite database (or its write-ahead log) renamed the report over it, and
// the branch's every ticket was gone. It is one sentence, and the database
// still opens with its tickets.
func TestReportRefusesToWriteOverTheDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "jiaohao.db")
	dsn := "sqlite:" + db
	if code, _, errs := cli("seed-day", "--db", dsn, "--date", "2026-03-02", "--tickets", "5"); code != 0 {
		t.Fatal(errs)
	}
	pdf := filepath.Join(dir, "r.pdf")
	for _, c := range []struct{ name, out, csv, branch string }{
		{"pdf", db, "", ""},
		{"csv", pdf, db, ""},
		{"write-ahead log", pdf, db + "-wal", ""},
		{"several branches", db, "", "all"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"report", "--db", dsn, "--date", "2026-03-02", "--out", c.out}
			if c.csv != "" {
				args = append(args, "--csv", c.csv)
			}
			if c.branch != "" {
				args = append(args, "--branch", c.branch)
			}
			code, _, stderr := cli(args...)
			if code != 2 || !strings.Contains(stderr, "database") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want 2 and one sentence naming the database", code, stderr)
			}
			if _, err := os.Stat(pdf); err == nil {
				t.Error("the PDF was written")
			}
			code, out, errs := cli("report", "--db", dsn, "--date", "2026-03-02", "--out", filepath.Join(dir, "check.pdf"))
			if code != 0 || !strings.Contains(out, "取号 5") {
				t.Fatalf("the database after: %d %q %s", code, out, errs)
			}
			os.Remove(filepath.Join(dir, "check.pdf"))
		})
	}
}
