package sqlstore_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// versionReads counts the reads of branch versions a pool makes: the
// shared poll (with how many branches each asked for) and any read of one
// branch's version.
type versionReads struct {
	mu     sync.Mutex
	polls  []int // ids asked for, one entry a poll
	single int
}

func countVersionReads(t *testing.T, db *gorm.DB) *versionReads {
	t.Helper()
	c := &versionReads{}
	poll := strings.SplitN(sqlstore.PollQuery, " WHERE", 2)[0]
	err := db.Callback().Row().After("gorm:row").Register("test:versions", func(tx *gorm.DB) {
		q := tx.Statement.SQL.String()
		c.mu.Lock()
		defer c.mu.Unlock()
		switch {
		case strings.HasPrefix(q, poll):
			c.polls = append(c.polls, len(tx.Statement.Vars))
		case strings.HasPrefix(q, "SELECT version FROM branch"):
			c.single++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *versionReads) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.polls, c.single = nil, 0
}

func (c *versionReads) read() ([]int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.polls...), c.single
}

// waitPolls waits until the pool has polled n more times.
func (c *versionReads) waitPolls(t *testing.T, n int) {
	t.Helper()
	polls, _ := c.read()
	for until := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		now, _ := c.read()
		if len(now) >= len(polls)+n {
			return
		}
		if time.Now().After(until) {
			t.Fatalf("the pool polled %d times in 20 s, want %d", len(now)-len(polls), n)
		}
	}
}

// Stores sharing a pool share one version poll: seven branches watched
// cost one query a tick naming all seven, and no read of one branch's
// version. A change in one branch, made through its store or by another
// PC, wakes that branch's watchers only.
func TestBranchWatchesShareOnePoll(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		root, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		defer root.Close()
		reads := countVersionReads(t, root.DB())
		stores := []*sqlstore.GormStore{root}
		for i := 1; i <= 6; i++ {
			code := fmt.Sprintf("W%03d", i)
			_, err := root.AddBranch(bg, model.BranchInfo{Code: code, Name: code, TimeZone: "Asia/Shanghai"}, "")
			okAny(t, err)
			b, err := root.Branch(bg, code)
			okAny(t, err)
			defer b.Close()
			stores = append(stores, b)
		}
		ctx, cancel := context.WithTimeout(bg, 60*time.Second)
		defer cancel()
		watches := make([]<-chan model.Event, len(stores))
		for i, s := range stores {
			watches[i], err = s.Watch(ctx, 0)
			okAny(t, err)
		}

		reads.reset()
		start := time.Now()
		reads.waitPolls(t, 5)
		elapsed := time.Since(start)
		polls, single := reads.read()
		if max := int(elapsed/sqlstore.PollInterval) + 1; len(polls) > max {
			t.Fatalf("%d polls in %v, want at most %d: one per tick for all branches", len(polls), elapsed, max)
		}
		for _, n := range polls {
			if n != len(stores) {
				t.Fatalf("a poll asked for %d branches, want all %d: %v", n, len(stores), polls)
			}
		}
		if single != 0 {
			t.Fatalf("%d reads of one branch's version while watching: each store still polls its own", single)
		}

		// A take through branch B's store wakes B at once, and A never.
		a, b := stores[1], stores[2]
		sigA, sigB := a.WatchSignal(), b.WatchSignal()
		tk := take(t, b, "A", 0)
		select {
		case <-sigB:
		default:
			t.Fatal("a take through B's store did not wake B's watchers at once")
		}
		if e := next(t, watches[2]); e.Ticket == nil || e.Ticket.ID != tk.ID {
			t.Fatalf("B's watcher got %+v, want the take of %d", e, tk.ID)
		}

		// Another PC on branch C (a pool of its own): the poll wakes C.
		c := stores[3]
		code, err := c.BranchCode(bg)
		okAny(t, err)
		pc, err := sqlstore.OpenBranch(bg, dsn, code)
		okAny(t, err)
		defer pc.Close()
		sigC := c.WatchSignal()
		tkC := take(t, pc, "B", 0)
		// The watcher also rereads the log every 2 s as a safety net, so
		// it may hold the event before the poll comes round; what must
		// happen is that the poll wakes C's hub.
		select {
		case <-sigC:
		case <-time.After(20 * time.Second):
			t.Fatal("the shared poll did not wake C's hub after another PC's take")
		}
		if e := next(t, watches[3]); e.Ticket == nil || e.Ticket.ID != tkC.ID {
			t.Fatalf("C's watcher got %+v, want the other PC's take of %d", e, tkC.ID)
		}
		reads.waitPolls(t, 2) // A's version was read twice since
		select {
		case <-sigA:
			t.Fatal("A's watchers were woken by changes in B and C")
		default:
		}
		for i, w := range watches {
			if i == 2 || i == 3 {
				continue
			}
			select {
			case e := <-w:
				t.Fatalf("branch %d's watcher got %+v, an event of another branch", stores[i].BranchID(), e)
			default:
			}
		}

		// And A's own change reaches A's watcher, numbered from A's start.
		tkA := take(t, a, "A", 0)
		if e := next(t, watches[1]); e.Ticket == nil || e.Ticket.ID != tkA.ID || e.Version != 1 {
			t.Fatalf("A's watcher got %+v, want its first event, the take of %d", e, tkA.ID)
		}
	})
}

// next is the watcher's next event, or the test fails after 20 s.
func next(t *testing.T, w <-chan model.Event) model.Event {
	t.Helper()
	select {
	case e, ok := <-w:
		if !ok {
			t.Fatal("watch closed")
		}
		return e
	case <-time.After(20 * time.Second):
		t.Fatal("no event in 20 s")
	}
	return model.Event{}
}
