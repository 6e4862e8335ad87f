package sqlstore

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	mssql "github.com/microsoft/go-mssqldb"
)

// sqliteErr stands in for the SQLite driver's coded errors.
type sqliteErr int

func (e sqliteErr) Error() string { return fmt.Sprintf("sqlite error %d", int(e)) }
func (e sqliteErr) Code() int     { return int(e) }

// Each dialect maps its driver's words for "cannot work right now" to a
// sentence, and leaves real bugs (a syntax error, a constraint) alone.
func TestFaultClassification(t *testing.T) {
	wrapped := func(err error) error { return fmt.Errorf("take: %w", err) }
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: &syscallErr{syscall.ECONNREFUSED}}
	for _, c := range []struct {
		d    dialect
		err  error
		want string
	}{
		{postgresDialect{}, &pgconn.PgError{Code: "53300", Message: "sorry, too many clients already"}, msgTooMany},
		{postgresDialect{}, wrapped(&pgconn.PgError{Code: "57P01"}), msgUnreachable},
		{postgresDialect{}, &pgconn.PgError{Code: "08006"}, msgUnreachable},
		{postgresDialect{}, &pgconn.PgError{Code: "53100"}, msgDiskFull},
		{postgresDialect{}, &pgconn.PgError{Code: "25006"}, msgReadOnly},
		{postgresDialect{}, &pgconn.PgError{Code: "42601", Message: "syntax error"}, ""},
		{postgresDialect{}, &pgconn.PgError{Code: "23505"}, ""},
		{mysqlDialect{}, &mysql.MySQLError{Number: 1040, Message: "Too many connections"}, msgTooMany},
		{mysqlDialect{}, wrapped(mysql.ErrInvalidConn), msgUnreachable},
		{mysqlDialect{}, &mysql.MySQLError{Number: 1290}, msgReadOnly},
		{mysqlDialect{}, &mysql.MySQLError{Number: 1021}, msgDiskFull},
		{mysqlDialect{}, &mysql.MySQLError{Number: 1205}, msgBusy},
		{mysqlDialect{}, &mysql.MySQLError{Number: 1064}, ""},
		{mssqlDialect{}, mssql.Error{Number: 1105}, msgDiskFull},
		{mssqlDialect{}, wrapped(mssql.Error{Number: 4060}), msgUnreachable},
		{mssqlDialect{}, mssql.Error{Number: 3906}, msgReadOnly},
		{mssqlDialect{}, mssql.Error{Number: 102}, ""},
		{sqliteDialect{}, sqliteErr(13), msgDiskFull},
		{sqliteDialect{}, sqliteErr(10 | 3<<8), msgIO}, // SQLITE_IOERR_WRITE
		{sqliteDialect{}, sqliteErr(5), msgBusy},
		{sqliteDialect{}, sqliteErr(8), msgReadOnly},
		{sqliteDialect{}, sqliteErr(19), ""}, // SQLITE_CONSTRAINT
		{sqliteDialect{}, sqliteErr(1), ""},  // SQLITE_ERROR: a bad statement
		{sqliteDialect{}, wrapped(context.DeadlineExceeded), msgTimeout},
		{mysqlDialect{}, wrapped(driver.ErrBadConn), msgUnreachable},
		{mysqlDialect{}, wrapped(refused), msgUnreachable},
		{postgresDialect{}, wrapped(syscall.ENOSPC), msgDiskFull},
		{postgresDialect{}, wrapped(syscall.EINVAL), ""},
		{postgresDialect{}, errors.New("record not found"), ""},
	} {
		if got := faultOf(c.d, c.err); got != c.want {
			t.Errorf("%s: %v: got %q, want %q", c.d.name(), c.err, got, c.want)
		}
	}
}

type syscallErr struct{ errno syscall.Errno }

func (e *syscallErr) Error() string { return e.errno.Error() }
func (e *syscallErr) Unwrap() error { return e.errno }
