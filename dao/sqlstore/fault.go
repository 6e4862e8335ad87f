package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"jiaohao/model"
)

// Sentences for a database that cannot do its work right now. Each names
// what staff can do about it; the driver's own words go to the log only.
const (
	msgUnreachable = "数据库暂时无法连接，请检查数据库服务器和网络 (the database cannot be reached right now: check the database server and the network)"
	msgTimeout     = "数据库响应超时，请检查数据库服务器 (the database did not answer in time: check the database server)"
	msgDiskFull    = "磁盘已满，数据库无法写入，请清理数据库所在的磁盘 (the disk is full: free space on the database's disk)"
	msgIO          = "数据库文件读写失败，请检查磁盘 (the database file cannot be read or written: check the disk)"
	msgBusy        = "数据库正忙，请稍后再试 (the database is busy: try again shortly)"
	msgReadOnly    = "数据库只读，无法写入，请检查数据库文件或服务器的权限 (the database is read-only: check its file or server permissions)"
	msgTooMany     = "数据库连接数已满，请稍后再试或提高数据库的连接上限 (the database has too many connections: try again shortly or raise its limit)"
)

// faultOf says in one sentence why the database cannot answer right now,
// or "" when err is not such a fault (a bug, a refused statement). The
// dialect knows its driver's errors; what every driver shares (the
// network, deadlines, database/sql's own errors) is decided here.
func faultOf(d dialect, err error) string {
	if err == nil {
		return ""
	}
	if msg := d.fault(err); msg != "" {
		return msg
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled), errors.Is(err, errLate):
		return msgTimeout
	case errors.Is(err, syscall.ENOSPC):
		return msgDiskFull
	case errors.Is(err, syscall.EROFS), errors.Is(err, syscall.EACCES):
		return msgReadOnly
	}
	// Checked after the errnos: syscall.Errno is a net.Error too.
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return msgTimeout
	}
	var op *net.OpError
	var dns *net.DNSError
	switch {
	case errors.As(err, &op), errors.As(err, &dns),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return msgUnreachable
	}
	return ""
}

// wrap turns driver errors into domain errors where the cause is known:
// a database that is down, full, frozen or read-only is EUnavailable with
// a sentence staff can act on, and is noted for the health log. Anything
// else is a bug and stays internal.
func (s *GormStore) wrap(err error) error {
	var me *model.Error
	if err == nil || errors.As(err, &me) {
		return err
	}
	if msg := faultOf(s.d, err); msg != "" {
		switch {
		case errors.Is(err, context.Canceled): // the caller gave up; the database may be fine
		case msg == msgHeadDefinerGone: // it answers: a setup to mend, not an outage to probe
		case errors.Is(err, context.DeadlineExceeded), pastBudget(err): // slow or held up, not down
			s.health.suspect(s, err)
		default:
			s.health.fault(s, err)
		}
		return &model.Error{Code: model.EUnavailable, Message: msg}
	}
	return fmt.Errorf("database: %w", err)
}

// faultCodes maps a driver's error codes (as strings) to the sentence for
// them, so each dialect lists its own in one table.
type faultCodes map[string]string

// containsAny is for the drivers that report some faults only in words.
func containsAny(msg string, words ...string) bool {
	msg = strings.ToLower(msg)
	for _, w := range words {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}
