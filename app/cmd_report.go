package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

func init() {
	register("report", "write the day's (or a range's) report: --date D --out F.pdf [--csv F.csv] [--from D1 --to D2] [--lang en] [--branch CODE|all|C1,C2]", runReport)
}

// runReport checks every argument before touching the database, so a typo
// costs nothing and leaves no file behind.
func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", stderr)
	dsn := dbFlag(fs)
	branch := fs.String("branch", "", "branch code, e.g. BJ001 (default: the database's only branch); all, or codes with commas (BJ001,SH002), for the report over several branches")
	date := fs.String("date", "", "business day YYYY-MM-DD (default: today)")
	from := fs.String("from", "", "first day of a range, YYYY-MM-DD (with --to)")
	to := fs.String("to", "", "last day of a range, YYYY-MM-DD (with --from)")
	out := fs.String("out", "", "PDF file to write")
	csvPath := fs.String("csv", "", "also write the figures to this CSV file")
	langFlag := fs.String("lang", "zh", "report language: zh or en")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	lang, err := reports.ParseLang(*langFlag)
	if err != nil {
		return err
	}
	first, last, err := reportDays(*date, *from, *to)
	if err != nil {
		return err
	}
	if *out == "" {
		return model.Errorf(model.EInvalidInput, "请用 --out 指定 PDF 文件 (--out is required)")
	}
	if *csvPath != "" && sameFile(*csvPath, *out) {
		return model.Errorf(model.EInvalidInput, "--csv 与 --out 不能是同一个文件 (--csv and --out are the same file)")
	}
	codes, many, err := reportBranches(*branch)
	if err != nil {
		return err
	}
	if many && first == "" {
		return model.Errorf(model.EInvalidInput, "多网点报表请用 --date 或 --from/--to 指定日期 (a report over several branches needs --date or --from and --to)")
	}
	for _, path := range []string{*out, *csvPath} {
		if path != "" {
			if err := reports.CheckWritable(path); err != nil {
				return err
			}
		}
	}
	if many {
		return reportOverBranches(ctx, *dsn, codes, first, last, lang, *out, *csvPath, stdout)
	}
	st, err := sqlstore.OpenBranch(ctx, *dsn, *branch)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := notOverDatabase(st.File(), *out, *csvPath); err != nil {
		return err
	}
	if first == "" {
		now, err := st.Now(ctx)
		if err != nil {
			return err
		}
		first = st.Calendar(ctx).Date(now)
		last = first
	}
	p, err := reports.NewPeriod(first, last, st.Location())
	if err != nil {
		return err
	}
	r, err := reports.Save(ctx, st, p, lang, *out, *csvPath)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "已生成 %s 的报表 %s：取号 %d，完成 %d，过号 %d\n", p, *out, r.Totals.Taken, r.Totals.Done, r.Totals.Passed)
	return nil
}

// reportDays turns --date or --from/--to into the first and last day,
// checked for form and order ("" and "" mean today). Dates are compared
// as calendar dates, so the zone does not matter yet.
func reportDays(date, from, to string) (string, string, error) {
	switch {
	case date != "" && (from != "" || to != ""):
		return "", "", model.Errorf(model.EInvalidInput, "--date 与 --from/--to 只能选一种 (use --date or --from and --to)")
	case (from == "") != (to == ""):
		return "", "", model.Errorf(model.EInvalidInput, "--from 和 --to 须同时给出 (--from needs --to)")
	case date != "":
		from, to = date, date
	case from == "":
		return "", "", nil
	}
	if _, err := reports.NewPeriod(from, to, time.UTC); err != nil {
		return "", "", err
	}
	return from, to, nil
}

// sameFile reports whether two paths name one file, however spelled: one
// relative and one absolute, a link to the other, or through a linked
// folder. Written as two files, the second would replace the first.
func sameFile(a, b string) bool {
	if x, err := filepath.Abs(a); err == nil {
		if y, err := filepath.Abs(b); err == nil && x == y {
			return true
		}
	}
	if x, err := os.Stat(a); err == nil {
		if y, err := os.Stat(b); err == nil {
			return os.SameFile(x, y)
		}
	}
	if filepath.Base(a) != filepath.Base(b) {
		return false
	}
	x, err := os.Stat(filepath.Dir(a))
	if err != nil {
		return false
	}
	y, err := os.Stat(filepath.Dir(b))
	return err == nil && os.SameFile(x, y)
}

// notOverDatabase refuses an output that is the SQLite database or one of
// its journal files: the report, renamed over it, would leave no tickets.
func notOverDatabase(file string, paths ...string) error {
	if file == "" {
		return nil
	}
	for _, p := range paths {
		for _, f := range []string{file, file + "-wal", file + "-shm", file + "-journal"} {
			if p != "" && sameFile(p, f) {
				return model.Errorf(model.EInvalidInput, "%s 是数据库文件，不能写入报表 (%s is the database file: choose another output)", p, p)
			}
		}
	}
	return nil
}
