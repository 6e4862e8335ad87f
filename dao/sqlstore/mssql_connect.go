package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"net"
	"sync"
	"time"

	mssql "github.com/microsoft/go-mssqldb"
)

// openMSSQL opens SQL Server through a connector whose login is bounded.
// The driver bounds the TCP dial ("dial timeout") but not the login that
// follows: a server that accepts the connection and never answers held
// the PC until the I/O timeout, and ignored the context meanwhile.
func openMSSQL(dsn string) (*sql.DB, error) {
	c, err := mssql.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	c.Dialer = loginDialer{}
	return sql.OpenDB(boundedLogin{c}), nil
}

// boundedLogin gives each new connection connectTimeout (or the context's
// deadline, if sooner) to log in, and gives it up at once when the context
// ends.
type boundedLogin struct{ *mssql.Connector }

type loginSlotKey struct{}

func (b boundedLogin) Connect(ctx context.Context) (driver.Conn, error) {
	slot := &loginSlot{ctx: ctx}
	c, err := b.Connector.Connect(context.WithValue(ctx, loginSlotKey{}, slot))
	slot.loggedIn()
	return c, err
}

// loginSlot carries the raw connection from the dialer back to Connect.
type loginSlot struct {
	ctx  context.Context
	mu   sync.Mutex
	conn *loginConn
	stop func() bool
}

func (s *loginSlot) set(c *loginConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conn = c
	s.stop = context.AfterFunc(s.ctx, c.expire)
}

func (s *loginSlot) loggedIn() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil {
		s.stop()
		s.conn.release()
	}
}

type loginDialer struct{}

func (loginDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := (&net.Dialer{KeepAlive: 30 * time.Second}).DialContext(ctx, network, addr)
	slot, _ := ctx.Value(loginSlotKey{}).(*loginSlot)
	if err != nil || network != "tcp" || slot == nil {
		return conn, err
	}
	until := time.Now().Add(connectTimeout)
	if d, ok := slot.ctx.Deadline(); ok && d.Before(until) {
		until = d
	}
	lc := &loginConn{Conn: conn, until: until}
	if err := conn.SetDeadline(until); err != nil {
		conn.Close()
		return nil, err
	}
	slot.set(lc)
	return lc, nil
}

// loginConn caps every deadline the driver sets at the end of the login;
// after the login it is a plain connection.
type loginConn struct {
	net.Conn
	mu    sync.Mutex
	until time.Time // zero once logged in
}

func (c *loginConn) limit(t time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.until.IsZero() && (t.IsZero() || t.After(c.until)) {
		return c.until
	}
	return t
}

func (c *loginConn) SetDeadline(t time.Time) error      { return c.Conn.SetDeadline(c.limit(t)) }
func (c *loginConn) SetReadDeadline(t time.Time) error  { return c.Conn.SetReadDeadline(c.limit(t)) }
func (c *loginConn) SetWriteDeadline(t time.Time) error { return c.Conn.SetWriteDeadline(c.limit(t)) }

// expire ends a login whose context ended.
func (c *loginConn) expire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.until.IsZero() {
		c.until = time.Now()
		_ = c.Conn.SetDeadline(c.until)
	}
}

func (c *loginConn) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.until.IsZero() {
		c.until = time.Time{}
		_ = c.Conn.SetDeadline(time.Time{})
	}
}
