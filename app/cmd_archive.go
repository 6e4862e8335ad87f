package app

import (
	"context"
	"fmt"
	"io"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

func init() {
	register("archive", "move finished days to ticket_history: --before D", runArchive)
}

// runArchive moves every ticket issued before --before to the history
// table, in batches; reports read both tables, so nothing changes for them.
func runArchive(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("archive", stderr)
	dsn := dbFlag(fs)
	branch := branchFlag(fs)
	before := fs.String("before", "", "archive the days before this date, YYYY-MM-DD (today at the latest)")
	batch := fs.Int("batch", sqlstore.DefaultArchiveBatch, "tickets moved per transaction")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *before == "" {
		return model.Errorf(model.EInvalidInput, "请用 --before 指定日期 (--before is required)")
	}
	if _, err := reports.Day(*before, time.UTC); err != nil {
		return err
	}
	if *batch < 1 || *batch > 100000 {
		return model.Errorf(model.EInvalidInput, "--batch 须在 1 到 100000 之间 (batch out of range)")
	}
	st, err := sqlstore.OpenBranch(ctx, *dsn, *branch)
	if err != nil {
		return err
	}
	defer st.Close()
	moved, err := st.Archive(ctx, *before, *batch)
	if err != nil {
		return fmt.Errorf("已归档 %d 个号码后出错，可再次运行继续 (archive stopped; run it again to finish): %w", moved, err)
	}
	fmt.Fprintf(stdout, "已将 %s 之前的 %d 个号码移入 ticket_history\n", *before, moved)
	return nil
}
