package sqlstore_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// withParam adds one query parameter to a DSN.
func withParam(dsn, kv string) string {
	if strings.Contains(dsn, "?") {
		return dsn + "&" + kv
	}
	return dsn + "?" + kv
}

// The pool is DefaultPool connections on a server database unless the DSN
// says pool=N, and always one on SQLite; a bad pool is one sentence.
func TestPoolSize(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		sqlite := strings.HasPrefix(dsn, "sqlite:")
		maxOpen := func(dsn string) int {
			t.Helper()
			s, err := sqlstore.Open(bg, dsn)
			if err != nil {
				t.Fatalf("open %s: %v", sqlstore.Redact(dsn), err)
			}
			defer s.Close()
			db, err := s.DB().DB()
			if err != nil {
				t.Fatal(err)
			}
			return db.Stats().MaxOpenConnections
		}
		want := sqlstore.DefaultPool
		if sqlite {
			want = 1
		}
		if n := maxOpen(dsn); n != want {
			t.Fatalf("default pool %d, want %d", n, want)
		}
		if n := maxOpen(withParam(dsn, "pool=1")); n != 1 {
			t.Fatalf("pool=1 gave %d", n)
		}
		bad := []string{"pool=0", "pool=x", "pool=", "pool=501", "pool=2&pool=2"}
		if sqlite {
			bad = append(bad, "pool=3")
		} else if n := maxOpen(withParam(dsn, "pool=3")); n != 3 {
			t.Fatalf("pool=3 gave %d", n)
		}
		for _, p := range bad {
			_, err := sqlstore.Open(bg, withParam(dsn, p))
			if model.ErrorCode(err) != model.EInvalidInput || !strings.Contains(err.Error(), "pool") {
				t.Errorf("%s: %v, want invalid_input naming pool", p, err)
			}
		}
	})
}

// With every connection of the pool busy a request waits for one instead
// of failing, and when none frees before its deadline it is "unavailable"
// (the peer server's 503), never an internal error; the pool never grows.
func TestPoolQueuesThenUnavailable(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		s, err := sqlstore.Open(bg, withParam(dsn, "pool=1"))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var logged daotest.LogBuffer
		s.SetLogger(slog.New(slog.NewTextHandler(&logged, nil)))
		db, err := s.DB().DB()
		if err != nil {
			t.Fatal(err)
		}
		hold, err := db.Conn(bg) // the pool's only connection
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(bg, 300*time.Millisecond)
		_, err = s.Snapshot(ctx)
		cancel()
		if model.ErrorCode(err) != model.EUnavailable {
			t.Fatalf("with the pool exhausted past the deadline: %v (%s), want unavailable", err, model.ErrorCode(err))
		}
		done := make(chan error, 1)
		go func() {
			ctx, cancel := context.WithTimeout(bg, 20*time.Second)
			defer cancel()
			_, err := s.Snapshot(ctx)
			done <- err
		}()
		for db.Stats().WaitCount < 2 {
			time.Sleep(5 * time.Millisecond) // until the second request queues
		}
		hold.Close()
		if err := <-done; err != nil {
			t.Fatalf("a queued request failed once the connection was free: %v", err)
		}
		if n := db.Stats().OpenConnections; n > 1 {
			t.Fatalf("%d connections open with pool=1", n)
		}
		// A wait for a busy pool is not an outage: the probe it started
		// finds the database answering, so nothing is marked or logged.
		if _, err := s.Probe(bg); err != nil {
			t.Fatalf("probe: %v", err)
		}
		time.Sleep(300 * time.Millisecond) // the suspect's own verdict follows its probe
		if s.Down() || strings.Contains(logged.String(), "database unavailable") {
			t.Fatalf("a busy pool was logged as an outage (down %v):\n%s", s.Down(), logged.String())
		}
	})
}
