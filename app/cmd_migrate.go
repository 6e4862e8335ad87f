package app

import (
	"context"
	"fmt"
	"io"

	"jiaohao/dao/sqlstore"
)

func init() {
	register("migrate", "create or update the tables (and seed a new branch)", runMigrate)
}

func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("migrate", stderr)
	dsn := dbFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	s, err := sqlstore.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer s.Close()
	fmt.Fprintf(stdout, "database %s (%s) is up to date\n", sqlstore.Redact(*dsn), s.Engine())
	return nil
}
