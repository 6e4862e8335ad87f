package app

import (
	"context"
	"fmt"
	"io"
	"time"

	"jiaohao/app/demodata"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

func init() {
	register("seed-day", "fill an empty day with realistic demo traffic: --date D --tickets N [--customers N]", runSeedDay)
}

// runSeedDay plays a demo day through the ordinary queue operations. It is
// for demo and test databases: the day's events are written with the
// simulated clock.
func runSeedDay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("seed-day", stderr)
	dsn := dbFlag(fs)
	branch := branchFlag(fs)
	date := fs.String("date", "", "business day YYYY-MM-DD to fill (default: today)")
	tickets := fs.Int("tickets", 300, "how many customers take a number")
	seed := fs.Uint64("seed", 0, "random seed; 0 derives it from the date, so a day replays the same")
	customers := fs.Int("customers", 300, "size of the demo customer register; one kiosk customer in four identifies (0: none)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *tickets < 1 || *tickets > demodata.MaxTickets {
		return model.Errorf(model.EInvalidInput, "--tickets 须在 1 到 %d 之间 (tickets out of range)", demodata.MaxTickets)
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
	if *date == "" {
		now, err := st.Now(ctx)
		if err != nil {
			return err
		}
		*date = st.Calendar(ctx).Date(now)
	}
	sum, err := demodata.Day(ctx, st, demodata.DayConfig{Date: *date, Tickets: *tickets, Seed: *seed, Customers: *customers})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "已生成 %s 的演示数据：%d 个号码，完成 %d，过号 %d，弃号 %d，仍在等待 %d\n", *date, sum.Tickets,
		sum.ByStatus[model.Done], sum.ByStatus[model.Passed], sum.ByStatus[model.Cancelled], sum.ByStatus[model.Waiting])
	return nil
}
