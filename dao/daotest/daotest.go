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
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

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

// servers are the server engines tests cover, each with the variable that
// names its server.
var servers = []struct {
	name, env string
	required  bool // by JIAOHAO_TEST_REQUIRE_SERVERS=1
}{
	{"postgres", EnvPostgres, true},
	{"mysql", EnvMySQL, true},
	// SQL Server cannot run on the CI machine; it is tested wherever the
	// variable points at one.
	{"sqlserver", EnvMSSQL, false},
}

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
	for _, e := range servers {
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
	for _, e := range servers {
		t.Run(e.name, func(t *testing.T) {
			dsn := os.Getenv(e.env)
			if dsn == "" {
				if os.Getenv(EnvRequire) == "1" && e.required {
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
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "jt_" + hex.EncodeToString(b)
	fresh, err := sqlstore.CreateDatabase(context.Background(), dsn, name)
	if err != nil {
		t.Fatalf("create test database on %s: %v", sqlstore.Redact(dsn), err)
	}
	t.Cleanup(func() {
		if err := sqlstore.DropDatabase(context.Background(), dsn, name); err != nil {
			t.Logf("drop test database %s on %s: %v", name, sqlstore.Redact(dsn), err)
		}
	})
	return fresh
}

// BenchDSN is a fresh database of the named engine for a benchmark.
func BenchDSN(b testing.TB, engine string) string {
	if env := ServerEnv(engine); env != "" {
		return FreshDatabase(b, os.Getenv(env))
	}
	return SQLiteDSN(b)
}

// ServerEnv is the variable that names the server of engine, "" for
// SQLite (and for a name no test knows).
func ServerEnv(engine string) string {
	for _, sv := range servers {
		if sv.name == engine {
			return sv.env
		}
	}
	return ""
}

// ServerDSN is a fresh database on the server env names (EnvPostgres,
// EnvMySQL), for a test of that engine alone: it skips where the variable
// is unset, and fails instead when JIAOHAO_TEST_REQUIRE_SERVERS=1.
func ServerDSN(t testing.TB, env string) string {
	t.Helper()
	dsn := os.Getenv(env)
	if dsn == "" {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("%s is not set but %s=1", env, EnvRequire)
		}
		t.Skipf("%s not set", env)
	}
	return FreshDatabase(t, dsn)
}
