package sqlstore

import (
	"database/sql"
	"net/url"
	"strconv"
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
// postgres://host/db?pool=32. parseDSN takes it out of the query before the
// rest reaches the driver.
const poolParam = "pool"

// takePool removes pool=N from q and returns N (0: not given).
func takePool(q url.Values) (int, error) {
	vs, ok := q[poolParam]
	if !ok {
		return 0, nil
	}
	delete(q, poolParam)
	n, err := strconv.Atoi(vs[0])
	if len(vs) != 1 || err != nil || n < 1 || n > MaxPool {
		return 0, model.Errorf(model.EInvalidInput,
			"连接串参数 pool 须为 1 到 %d 之间的整数，且只给一次 (pool must be one integer from 1 to %d)", MaxPool, MaxPool)
	}
	return n, nil
}

// serverPool is sizePool for a server database: pool connections
// (DefaultPool when 0), all kept open while idle so a burst does not
// reconnect, and given back to the server after a quiet while.
func serverPool(db *sql.DB, pool int) {
	if pool == 0 {
		pool = DefaultPool
	}
	db.SetMaxOpenConns(pool)
	db.SetMaxIdleConns(pool)
	db.SetConnMaxIdleTime(5 * time.Minute)
}

// PoolSize is the number of connections the Store's pool may open, shared
// by every Branch made from it.
func (s *GormStore) PoolSize() int { return cap(s.writers) }

// BranchInFlight is how many writes of one branch a Store lets run at once
// on PostgreSQL; the rest wait in the process, in arrival order, holding
// no connection. Every write of a branch passes its version row one at a
// time, so more in flight only wait there, each on a connection and a
// server process that competes for the CPU with the one holding the row,
// which stretches every hold. Four cover the reads and the claim of the
// writes behind the one committing. Measured on a 2-core VM, 16 windows
// calling through one Store: 1,090-1,240 calls/s and p99 25-30 ms against
// 730-840 and 78-103 ms without (README, "Speed"). It also keeps one busy
// branch of a head office's pool (serve --branch all) from holding every
// connection while it waits on its own row. MariaDB, measured the same
// way, was no faster with it, and SQLite's one writer is its own bound.
const BranchInFlight = 4

// inFlightBound is a dialect whose writes of one branch are best bounded
// in the process (BranchInFlight).
type inFlightBound interface{ boundsInFlight() }

func (postgresDialect) boundsInFlight() {}

// newInFlight is a branch's bound on writes in flight, nil for none.
func (s *GormStore) newInFlight() chan struct{} {
	if _, ok := s.d.(inFlightBound); !ok {
		return nil
	}
	return make(chan struct{}, BranchInFlight)
}
