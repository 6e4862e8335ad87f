package model_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// When the business day ends the followed state is the next day's, not the
// last one's with its counts and lists: the first event of the new day
// makes the follower load a fresh snapshot, whose date a caller's desk
// rules then read.
func TestFollowerReloadsAtTheNewBusinessDay(t *testing.T) {
	st := daotest.SQLite(t)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	var mu sync.Mutex
	var last model.Snapshot
	f := model.NewFollower(st, func(c model.Change) { mu.Lock(); last = c.Snapshot; mu.Unlock() })
	wg.Go(func() { f.Run(ctx) })
	<-f.Loaded()
	mu.Lock()
	first := last
	mu.Unlock()
	if first.DayEnds.IsZero() {
		t.Fatal("the snapshot does not say when its business day ends")
	}
	now, err := st.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st.ShiftClock(first.DayEnds.Sub(now) + time.Minute)
	tk, err := st.TakeTicket(ctx, "A", 0, "kiosk")
	if err != nil {
		t.Fatal(err)
	}
	if tk.BusinessDate == first.BusinessDate {
		t.Fatalf("the number after the day's end is still on %s", tk.BusinessDate)
	}
	waitFor(t, "the follower to load the new day", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return last.BusinessDate == tk.BusinessDate
	})
	if n := f.Reloads(); n != 2 {
		t.Fatalf("the follower loaded %d snapshots, want 2: the first and the new day's", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if a := last.Services[0]; a.Code != "A" || a.Taken != 1 {
		t.Fatalf("the new day's counts are %+v, want one A taken", last.Services[0])
	}
}
