// Package daotest gives tests real Stores: a fresh SQLite file always, and a
// fresh PostgreSQL or MariaDB database when their server DSNs are set. With
// JIAOHAO_TEST_REQUIRE_SERVERS=1 a missing server DSN fails the test instead
// of skipping it, so CI cannot pass by skipping. For fault tests it starts
// private PostgreSQL and MariaDB servers the test may stop, kill and
// freeze, proxies that cut a shared server away from one Store, and a
// listener that never answers; CheckQueue asserts what no fault may break.
package daotest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/microsoft/go-mssqldb"

	"jiaohao/dao/sqlstore"
)

// Env variables naming the server databases tests may use. Each test gets
// its own database created on that server and dropped afterwards.
const (
	EnvPostgres = "JIAOHAO_TEST_PG_DSN"    // postgres://postgres@127.0.0.1:5432/postgres
	EnvMySQL    = "JIAOHAO_TEST_MYSQL_DSN" // mysql://root@127.0.0.1:3306/test
	EnvMSSQL    = "JIAOHAO_TEST_MSSQL_DSN" // sqlserver://user:pass@host:1433?database=…
	EnvRequire  = "JIAOHAO_TEST_REQUIRE_SERVERS"
)

// SQLite opens a Store on a new database file in t.TempDir().
func SQLite(t testing.TB) *sqlstore.GormStore {
	t.Helper()
	return open(t, SQLiteDSN(t))
}

// SQLiteDSN is a fresh SQLite DSN in t.TempDir(), for tests that open it
// themselves (several Stores on one file, a server process).
func SQLiteDSN(t testing.TB) string {
	return "sqlite:" + filepath.Join(t.TempDir(), "jiaohao.db")
}

func open(t testing.TB, dsn string) *sqlstore.GormStore {
	t.Helper()
	s, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("open %s: %v", sqlstore.Redact(dsn), err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Engines lists the engines a test should cover: sqlite always, then the
// servers whose DSN is set.
func Engines() []string {
	out := []string{"sqlite"}
	for _, e := range []struct{ name, env string }{{"postgres", EnvPostgres}, {"mysql", EnvMySQL}, {"sqlserver", EnvMSSQL}} {
		if os.Getenv(e.env) != "" {
			out = append(out, e.name)
		}
	}
	return out
}

// Each runs fn as a subtest on a fresh Store of every engine.
func Each(t *testing.T, fn func(t *testing.T, s *sqlstore.GormStore)) {
	t.Helper()
	EachDSN(t, func(t *testing.T, dsn string) { fn(t, open(t, dsn)) })
}

// EachDSN runs fn with a fresh empty database DSN of every engine:
// sqlite always; postgres and mysql from their env variables, failing when
// JIAOHAO_TEST_REQUIRE_SERVERS=1 and one is unset.
func EachDSN(t *testing.T, fn func(t *testing.T, dsn string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLiteDSN(t)) })
	for _, e := range []struct{ name, env string }{{"postgres", EnvPostgres}, {"mysql", EnvMySQL}, {"sqlserver", EnvMSSQL}} {
		t.Run(e.name, func(t *testing.T) {
			dsn := os.Getenv(e.env)
			if dsn == "" {
				// SQL Server cannot run on the CI machine; it is tested
				// wherever the variable points at one.
				if os.Getenv(EnvRequire) == "1" && e.name != "sqlserver" {
					t.Fatalf("%s is not set but %s=1: this run must test %s", e.env, EnvRequire, e.name)
				}
				t.Skipf("%s not set: %s not tested", e.env, e.name)
			}
			fn(t, FreshDatabase(t, dsn))
		})
	}
}

// FreshDatabase creates a new database on the server of dsn and returns
// the DSN pointing at it; the database is dropped when the test ends.
func FreshDatabase(t testing.TB, dsn string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("bad test DSN %s: %v", sqlstore.Redact(dsn), err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "jt_" + hex.EncodeToString(b)
	driver, admin := "pgx", dsn
	switch {
	case strings.HasPrefix(u.Scheme, "mysql"):
		pass, _ := u.User.Password()
		driver, admin = "mysql", u.User.Username()+":"+pass+"@tcp("+u.Host+")/"
	case u.Scheme == "sqlserver":
		driver = "sqlserver"
	}
	db, err := sql.Open(driver, admin)
	if err != nil {
		t.Fatalf("connect %s: %v", sqlstore.Redact(dsn), err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create test database on %s: %v", sqlstore.Redact(dsn), err)
	}
	t.Cleanup(func() {
		db, err := sql.Open(driver, admin)
		if err == nil {
			switch driver {
			case "pgx":
				_, _ = db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
			case "sqlserver":
				_, _ = db.Exec("ALTER DATABASE " + name + " SET SINGLE_USER WITH ROLLBACK IMMEDIATE")
				_, _ = db.Exec("DROP DATABASE IF EXISTS " + name)
			default:
				_, _ = db.Exec("DROP DATABASE IF EXISTS " + name)
			}
			db.Close()
		}
	})
	if driver == "sqlserver" {
		q := u.Query()
		q.Set("database", name)
		u.RawQuery = q.Encode()
		return u.String()
	}
	u.Path = "/" + name
	return u.String()
}

// BenchDSN is a fresh database of the named engine for a benchmark.
func BenchDSN(b testing.TB, engine string) string {
	switch engine {
	case "postgres":
		return FreshDatabase(b, os.Getenv(EnvPostgres))
	case "mysql":
		return FreshDatabase(b, os.Getenv(EnvMySQL))
	case "sqlserver":
		return FreshDatabase(b, os.Getenv(EnvMSSQL))
	}
	return SQLiteDSN(b)
}
