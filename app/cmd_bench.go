package app

import (
	"context"
	"encoding/json"
	"flag"
	"io"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

func init() {
	register("bench", "measure take and call-next on a database (use a scratch database)", runBenchCmd)
}

func runBenchCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", stderr)
	dsn := fs.String("db", "", "database to measure (required; bench tickets use service Z and windows 901+)")
	branch := branchFlag(fs)
	windows := fs.Int("windows", 16, "windows calling concurrently (a branch's, 8 by default with --branches)")
	tickets := fs.Int("tickets", 2000, "tickets to take, then call (a branch's, 200 by default with --branches --saturate)")
	compare := fs.Bool("compare", false, "also measure seed 002's shape (one branch-wide lock first) and a bare one-row bump, interleaved; prints both rates and their ratio")
	rounds := fs.Int("rounds", 0, "rounds to run; the rates are medians (default 1, or 3 with --compare)")
	branches := fs.Int("branches", 0, "load this many branches at once (BENCH001…, added when missing and kept for the next run), sharing one pool as `serve --branch all` does")
	rate := fs.Float64("rate", 1, "with --branches: calls per second each branch is asked for, open loop")
	seconds := fs.Float64("seconds", 30, "with --branches: how long the open loop runs")
	saturate := fs.Bool("saturate", false, "with --branches: every branch calls a backlog of --tickets back to back, for the aggregate ceiling")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dsn == "" {
		return errRequired("--db")
	}
	if *branches != 0 {
		o := branchesOptions{branches: *branches, windows: 8, rate: *rate, seconds: *seconds, saturate: *saturate, tickets: 200}
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if set["windows"] {
			o.windows = *windows
		}
		if set["tickets"] {
			o.tickets = *tickets
		}
		if set["branch"] || set["compare"] || set["rounds"] {
			return model.Errorf(model.EInvalidInput, "--branches runs bench branches of its own: --branch, --compare and --rounds do not go with it")
		}
		return benchBranchesCmd(ctx, *dsn, o, stdout)
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

func benchBranchesCmd(ctx context.Context, dsn string, o branchesOptions, stdout io.Writer) error {
	if err := validateBranchesBench(o); err != nil {
		return err
	}
	s, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := runBranchesBench(ctx, s, o)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(res)
}

func validateBranchesBench(o branchesOptions) error {
	if o.branches < 1 || o.branches > 999 {
		return model.Errorf(model.EInvalidInput, "--branches must be between 1 and 999, got %d", o.branches)
	}
	if !(o.rate >= 0.01 && o.rate <= 1000) {
		return model.Errorf(model.EInvalidInput, "--rate must be between 0.01 and 1000 calls per second, got %g", o.rate)
	}
	if !(o.seconds >= 1 && o.seconds <= 3600) {
		return model.Errorf(model.EInvalidInput, "--seconds must be between 1 and 3600, got %g", o.seconds)
	}
	return validateBench(o.windows, o.tickets, 0)
}
