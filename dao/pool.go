package dao

import (
	"database/sql"
	"strconv"
	"strings"
	"time"

	"jiaohao/model"
)

// The connection budget of one Store. A server database shares its
// max_connections (PostgreSQL's default is 100) with every host, PC and
// tool of the branch, so each Store keeps a small fixed pool: requests
// beyond it queue inside the process for a free connection until their
// context ends (then the store answers unavailable), instead of asking the
// server for more and being refused. Subscribers of a peer server share
// the server's one event watch and hold no connection while they listen.
const (
	// DefaultPool is a server database's pool: enough for a busy hall (a
	// query takes about a millisecond), and six hosts or tools side by side
	// still fit under PostgreSQL's default limit.
	DefaultPool = 16
	// MaxPool bounds the `pool` DSN parameter.
	MaxPool = 500
)

// poolParam is the DSN parameter that sets the pool, e.g.
// postgres://host/db?pool=32. It is taken out before the DSN reaches the
// driver.
const poolParam = "pool"

// takePool removes pool=N from dsn's query and returns the rest with the
// pool size for engine scheme (0: not given).
func takePool(dsn string) (string, int, error) {
	i := strings.IndexByte(dsn, '?')
	if i < 0 {
		return dsn, 0, nil
	}
	var kept []string
	pool := 0
	for _, kv := range strings.Split(dsn[i+1:], "&") {
		k, v, _ := strings.Cut(kv, "=")
		if k != poolParam {
			kept = append(kept, kv)
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPool || pool != 0 {
			return "", 0, model.Errorf(model.EInvalidInput,
				"连接串参数 pool 须为 1 到 %d 之间的整数，且只给一次 (pool must be one integer from 1 to %d)", MaxPool, MaxPool)
		}
		pool = n
	}
	rest := dsn[:i]
	if len(kept) > 0 {
		rest += "?" + strings.Join(kept, "&")
	}
	scheme, _, _ := strings.Cut(dsn, ":")
	if strings.EqualFold(scheme, "sqlite") && pool > 1 {
		return "", 0, model.Errorf(model.EInvalidInput,
			"SQLite 数据库只用一个连接，pool 只能为 1 (SQLite uses one connection: pool must be 1)")
	}
	return rest, pool, nil
}

// setPool sizes db's pool: SQLite always one connection (one writer, so no
// SQLITE_BUSY inside the process), a server database pool connections
// (DefaultPool when 0), all kept open while idle so a burst does not
// reconnect, and given back to the server after a quiet while.
func setPool(db *sql.DB, engine string, pool int) {
	if engine == "sqlite" {
		db.SetMaxOpenConns(1)
		return
	}
	if pool == 0 {
		pool = DefaultPool
	}
	db.SetMaxOpenConns(pool)
	db.SetMaxIdleConns(pool)
	db.SetConnMaxIdleTime(5 * time.Minute)
}
