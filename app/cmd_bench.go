package app

import (
	"context"
	"encoding/json"
	"io"

	"jiaohao/dao"
)

func init() {
	register("bench", "measure take and call-next on a database (use a scratch database)", runBenchCmd)
}

func runBenchCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", stderr)
	dsn := fs.String("db", "", "database to measure (required; bench tickets use service Z and windows 901+)")
	windows := fs.Int("windows", 16, "windows calling concurrently")
	tickets := fs.Int("tickets", 2000, "tickets to take, then call")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dsn == "" {
		return errRequired("--db")
	}
	if err := validateBench(*windows, *tickets); err != nil {
		return err
	}
	s, err := dao.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := runBench(ctx, s, *windows, *tickets)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(res)
}
