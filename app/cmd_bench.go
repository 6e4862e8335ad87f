package app

import (
	"context"
	"encoding/json"
	"io"

	"jiaohao/dao/sqlstore"
)

func init() {
	register("bench", "measure take and call-next on a database (use a scratch database)", runBenchCmd)
}

func runBenchCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", stderr)
	dsn := fs.String("db", "", "database to measure (required; bench tickets use service Z and windows 901+)")
	branch := branchFlag(fs)
	windows := fs.Int("windows", 16, "windows calling concurrently")
	tickets := fs.Int("tickets", 2000, "tickets to take, then call")
	compare := fs.Bool("compare", false, "also measure seed 002's shape (one branch-wide lock first) and a bare one-row bump, interleaved; prints both rates and their ratio")
	rounds := fs.Int("rounds", 0, "rounds to run; the rates are medians (default 1, or 3 with --compare)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dsn == "" {
		return errRequired("--db")
	}
	if err := validateBench(*windows, *tickets, *rounds); err != nil {
		return err
	}
	s, err := sqlstore.OpenBranch(ctx, *dsn, *branch)
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := runBench(ctx, s, benchOptions{windows: *windows, tickets: *tickets, rounds: *rounds, compare: *compare})
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(res)
}
