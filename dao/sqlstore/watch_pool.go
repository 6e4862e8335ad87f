package sqlstore

import (
	"context"
	"sync"
	"time"

	"gorm.io/gorm"
)

// versionWatch is the one tail loop of the Stores sharing a pool (Open's
// and every Branch made from it): each tick it reads the version of every
// branch being watched in one query and wakes only the hubs whose version
// moved. A process serving a hundred branches then asks five times a
// second, not five hundred. A Store of its own pool is the case of one.
type versionWatch struct {
	db *gorm.DB

	mu      sync.Mutex
	hubs    map[*hub]struct{} // the watched Stores of the pool
	running bool              // the tail loop runs while hubs is not empty
}

func newVersionWatch(db *gorm.DB) *versionWatch {
	return &versionWatch{db: db, hubs: map[*hub]struct{}{}}
}

// allBranches is the number of watched branches beyond which one poll
// reads the whole table rather than a list of ids (SQL Server takes at
// most 2,100 parameters).
const allBranches = 1000

func (w *versionWatch) join(h *hub) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.hubs[h] = struct{}{}
	if !w.running {
		w.running = true
		go w.tail()
	}
}

func (w *versionWatch) leave(h *hub) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.hubs, h)
}

// wrote moves the hubs of branch to version v, committed through one of
// the pool's Stores.
func (w *versionWatch) wrote(branch, v int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for h := range w.hubs {
		if h.branch == branch {
			h.move(v, true, 0)
		}
	}
}

// watched is the hubs to poll for, with the branches they serve and each
// hub's count of moves by writes; none stops the loop.
func (w *versionWatch) watched() ([]*hub, []int64, []uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.hubs) == 0 {
		w.running = false
		return nil, nil, nil
	}
	hubs := make([]*hub, 0, len(w.hubs))
	locals := make([]uint64, 0, len(w.hubs))
	seen := map[int64]bool{}
	var ids []int64
	for h := range w.hubs {
		hubs = append(hubs, h)
		locals = append(locals, h.localMoves())
		if !seen[h.branch] {
			seen[h.branch] = true
			ids = append(ids, h.branch)
		}
	}
	return hubs, ids, locals
}

func (w *versionWatch) tail() {
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for range tick.C {
		hubs, ids, locals := w.watched()
		if hubs == nil {
			return
		}
		versions, err := w.poll(ids)
		if err != nil {
			continue // the next tick asks again; writes here still wake at once
		}
		for i, h := range hubs {
			if v, ok := versions[h.branch]; ok {
				h.move(v, false, locals[i])
			}
		}
	}
}

// pollQuery reads the watched branches' versions; more than allBranches
// read them all.
const (
	pollQuery    = "SELECT id, version FROM branch WHERE id IN ?"
	pollAllQuery = "SELECT id, version FROM branch"
)

// poll reads the versions of ids in one query, bounded so that a frozen
// database cannot hold the loop (and a connection) forever.
func (w *versionWatch) poll(ids []int64) (map[int64]int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	var rows []struct{ ID, Version int64 }
	q := w.db.WithContext(ctx)
	if len(ids) > allBranches {
		q = q.Raw(pollAllQuery)
	} else {
		q = q.Raw(pollQuery, ids)
	}
	if err := q.Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make(map[int64]int64, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Version
	}
	return out, nil
}
