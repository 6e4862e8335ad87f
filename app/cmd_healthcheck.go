package app

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

func init() {
	register("healthcheck", "check a business day now and write its report and health summary: [--date D] [--dir D] [--lang en]", runHealthCheck)
}

// runHealthCheck is the daily health check on demand (seed 002 §5.2): it
// rewrites the day's files whatever ran before and records the check, so
// the manager's screen shows it. The automatic check runs in serve.
func runHealthCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("healthcheck", stderr)
	dsn := dbFlag(fs)
	branch := branchFlag(fs)
	date := fs.String("date", "", "business day YYYY-MM-DD (default: the last closed one; a day still open is refused)")
	dir := fs.String("dir", "", "folder for the files (default: the health_check_dir setting under the data folder)")
	langFlag := fs.String("lang", "zh", "language of the PDFs: zh or en")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if _, err := reports.ParseLang(*langFlag); err != nil {
		return err
	}
	if *date != "" {
		if _, err := reports.Day(*date, time.UTC); err != nil {
			return err
		}
	}
	st, err := sqlstore.OpenBranch(ctx, *dsn, *branch)
	if err != nil {
		return err
	}
	defer st.Close()
	c, err := newHealthHost(st, *dir, *langFlag, func(string, ...any) {}).RunHealthCheck(ctx, *date)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, healthLine(c))
	return nil
}

// healthLine is the check in one sentence, as the log and a console show it.
func healthLine(c model.HealthCheck) string {
	verdict := "正常"
	if c.Flagged {
		var why []string
		if c.Stuck > 0 {
			why = append(why, fmt.Sprintf("%d 个号码停留在已叫号或办理中", c.Stuck))
		}
		if len(c.PassedOver) > 0 {
			why = append(why, "过号率超标 "+strings.Join(c.PassedOver, " "))
		}
		verdict = "需要处理：" + strings.Join(why, "；")
	}
	if c.Dir == "" {
		return fmt.Sprintf("%s 健康检查：当天无取号，未写文件", c.Date)
	}
	return fmt.Sprintf("%s 健康检查：取号 %d，%s；文件在 %s", c.Date, c.Taken, verdict, c.Dir)
}
