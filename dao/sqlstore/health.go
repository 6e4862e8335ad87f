package sqlstore

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// probeEvery bounds how often Probe writes to the database; answers in
// between are the last probe's.
const probeEvery = time.Second

// probeTimeout bounds one probe: a frozen database is down, not slow.
const probeTimeout = 3 * time.Second

// minDiskFree is the room an embedded database needs to be called up. A
// one-row probe can still squeeze into the write-ahead log's slack on a
// full disk while a take, which writes a dozen pages, cannot.
const minDiskFree = 1 << 20

// health is what this Store knows about its database: up, or down since
// a time for a cause. It logs each change once (down, then up again), so
// an outage under load is two lines in the log, not one per request.
type health struct {
	mu       sync.Mutex
	log      *slog.Logger
	secret   string // the DSN's password, kept out of every logged cause
	down     bool
	checking bool // a suspect's probe is running
	since    time.Time
	closed   chan struct{}

	probeMu  sync.Mutex // one probe at a time; the others wait for its answer
	probedAt time.Time
	version  int64
	probeErr error
}

// SetLogger names where the Store logs its database going down and
// coming back (with the driver's cause, never the password). Without one
// nothing is logged.
func (s *GormStore) SetLogger(l *slog.Logger) {
	s.health.mu.Lock()
	s.health.log = l
	s.health.mu.Unlock()
}

// Down reports whether the database is known to be unavailable right now:
// a statement failed for a fault and no probe has succeeded since.
func (s *GormStore) Down() bool {
	s.health.mu.Lock()
	defer s.health.mu.Unlock()
	return s.health.down
}

// Probe checks that the database takes a write right now: a committed
// update of the branch row that changes nothing (on SQLite a full disk or
// a read-only file fails it). It writes at most once a second; in between
// it answers the last result. It returns the branch version.
func (s *GormStore) Probe(ctx context.Context) (int64, error) {
	h := &s.health
	h.probeMu.Lock()
	defer h.probeMu.Unlock()
	if !h.probedAt.IsZero() && time.Since(h.probedAt) < probeEvery {
		return h.version, h.probeErr
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	v, err := s.probe(ctx)
	h.probedAt, h.version, h.probeErr = time.Now(), v, err
	if err == nil {
		h.up()
	}
	return v, err
}

func (s *GormStore) probe(ctx context.Context) (int64, error) {
	var v int64
	tx := s.db.WithContext(ctx).Begin()
	if tx.Error != nil {
		return 0, s.wrap(tx.Error)
	}
	defer tx.Rollback()
	if err := tx.Exec("UPDATE branch SET version = version WHERE id = ?", s.branchID).Error; err != nil {
		return 0, s.wrap(err)
	}
	if err := tx.Raw("SELECT version FROM branch WHERE id = ?", s.branchID).Scan(&v).Error; err != nil {
		return 0, s.wrap(err)
	}
	if err := tx.Commit().Error; err != nil {
		return 0, s.wrap(err)
	}
	if s.file != "" {
		free, err := diskFree(filepath.Dir(s.file))
		if err == nil && free < minDiskFree {
			return 0, s.wrap(fmt.Errorf("%d bytes free on the disk of %s: %w", free, s.file, syscall.ENOSPC))
		}
	}
	return v, nil
}

// fault records that a statement failed because the database cannot work
// right now. The first fault of an outage is logged and starts a probe
// every second until the database answers again.
func (h *health) fault(s *GormStore, cause error) {
	h.mu.Lock()
	if h.down {
		h.mu.Unlock()
		return
	}
	h.down, h.since = true, time.Now()
	log, msg := h.log, h.scrub(firstLine(cause))
	h.mu.Unlock()
	if log != nil {
		log.Warn("database unavailable", "engine", s.d.name(), "reason", faultOf(s.d, cause), "cause", msg)
	}
	go h.recover(s)
}

// suspect handles a statement that ran out of time. That is an outage
// when the database froze, but only a busy moment when the request waited
// too long for one of the pool's connections: a probe tells which, and
// only a failed one marks the database down and logs it.
func (h *health) suspect(s *GormStore, cause error) {
	h.mu.Lock()
	if h.down || h.checking {
		h.mu.Unlock()
		return
	}
	h.checking = true
	h.mu.Unlock()
	go func() {
		_, err := s.Probe(context.Background())
		h.mu.Lock()
		h.checking = false
		h.mu.Unlock()
		if err != nil {
			h.fault(s, cause)
		}
	}()
}

// up records a successful probe, logging the end of an outage.
func (h *health) up() {
	h.mu.Lock()
	if !h.down {
		h.mu.Unlock()
		return
	}
	h.down = false
	log, d := h.log, time.Since(h.since)
	h.mu.Unlock()
	if log != nil {
		log.Info("database available again", "down_for", d.Round(100*time.Millisecond).String())
	}
}

// recover probes until the database takes a write again or the Store is
// closed.
func (h *health) recover(s *GormStore) {
	t := time.NewTicker(probeEvery)
	defer t.Stop()
	for {
		select {
		case <-h.closed:
			return
		case <-t.C:
		}
		if !s.Down() {
			return
		}
		_, _ = s.Probe(context.Background())
	}
}

// scrub keeps the password out of a driver's message.
func (h *health) scrub(msg string) string { return scrubSecret(msg, h.secret) }

// scrubSecret hides secret (a DSN's password) wherever a driver's message
// echoes it.
func scrubSecret(msg, secret string) string {
	if secret == "" {
		return msg
	}
	return strings.ReplaceAll(msg, secret, "xxxxx")
}
