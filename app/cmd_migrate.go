package app

import (
	"context"
	"fmt"
	"io"

	"jiaohao/dao/sqlstore"
)

func init() {
	register("migrate", "create or update the tables (and seed a new database's first branch): --db DSN [--branch CODE]", runMigrate)
}

func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("migrate", stderr)
	dsn := dbFlag(fs)
	branch := branchFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	// The tables are the whole database's: with no --branch every branch
	// is migrated, however many there are; with one, it is checked too.
	open := func() (*sqlstore.GormStore, error) { return sqlstore.Open(ctx, *dsn) }
	if *branch != "" {
		open = func() (*sqlstore.GormStore, error) { return sqlstore.OpenBranch(ctx, *dsn, *branch) }
	}
	s, err := open()
	if err != nil {
		return err
	}
	defer s.Close()
	fmt.Fprintf(stdout, "database %s (%s) is up to date\n", sqlstore.Redact(*dsn), s.Engine())
	return nil
}
