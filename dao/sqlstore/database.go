package sqlstore

import (
	"context"
	"errors"
	"net/url"
	"regexp"

	"jiaohao/model"
)

// scratchDB is how to make and remove one database on a server: tests
// get a fresh one each, without a driver of their own.
type scratchDB struct {
	admin string   // the DSN the statements run on
	dsn   string   // the DSN of the new database
	drop  []string // what removes it; each runs even if one before failed
}

// plainName is what a database name passed to CreateDatabase may hold: it
// goes into the statement as it is.
var plainName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,62}$`)

// CreateDatabase creates the empty database name on the server dsn
// reaches and returns the DSN of it; DropDatabase removes it. SQLite is a
// file and has no server to ask.
func CreateDatabase(ctx context.Context, dsn, name string) (string, error) {
	sc, err := scratchOf(dsn, name)
	if err != nil {
		return "", err
	}
	return sc.dsn, run(ctx, sc.admin, "CREATE DATABASE "+name)
}

// DropDatabase drops the database name on the server dsn reaches, ending
// any sessions still in it.
func DropDatabase(ctx context.Context, dsn, name string) error {
	sc, err := scratchOf(dsn, name)
	if err != nil {
		return err
	}
	return run(ctx, sc.admin, sc.drop...)
}

// Ping connects to dsn and says whether the database answers, without
// migrating it: for waiting on a server that is starting.
func Ping(ctx context.Context, dsn string) error {
	_, pool, _, err := reach(ctx, dsn)
	if err == nil {
		pool.Close()
	}
	return err
}

func scratchOf(dsn, name string) (scratchDB, error) {
	if !plainName.MatchString(name) {
		return scratchDB{}, model.Errorf(model.EInvalidInput, "数据库名 %q 无效 (a database name is lower-case letters, digits and _)", name)
	}
	d, err := dialectOf(dsn)
	if err != nil {
		return scratchDB{}, err
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return scratchDB{}, model.Errorf(model.EInvalidInput, "连接串无效 (invalid connection string) %s", Redact(dsn))
	}
	return d.scratch(u, name)
}

// run executes each statement on dsn, all of them even when one fails.
func run(ctx context.Context, dsn string, stmts ...string) error {
	_, pool, _, err := reach(ctx, dsn)
	if err != nil {
		return err
	}
	defer pool.Close()
	var errs []error
	for _, q := range stmts {
		if _, err := pool.ExecContext(ctx, q); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// withPath is u with name as the database in its path ("" for none).
func withPath(u *url.URL, name string) string {
	c := *u
	c.Path, c.RawPath = "", ""
	if name != "" {
		c.Path = "/" + name
	}
	return c.String()
}
