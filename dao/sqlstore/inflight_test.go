package sqlstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// On PostgreSQL a branch's writes past BranchInFlight wait in the process
// holding no connection: another branch of the same pool still writes
// meanwhile, the waiting writes run in turn once the first end, and one
// whose caller gives up while it waits ends with the caller's error.
func TestBranchWritesInFlightAreBounded(t *testing.T) {
	s := openStore(t, daotest.ServerDSN(t, daotest.EnvPostgres))
	_, err := s.AddBranch(bg, model.BranchInfo{Code: "SH001", Name: "上海分行", TimeZone: "Asia/Shanghai"}, "")
	okAny(t, err)
	other, err := s.Branch(bg, "SH001")
	okAny(t, err)
	defer other.Close()

	n := sqlstore.BranchInFlight + 3
	entered := make(chan struct{}, n+1)
	release := make(chan struct{})
	done := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() { done <- s.HoldWrite(bg, entered, release) }()
	}
	for i := 0; i < sqlstore.BranchInFlight; i++ {
		select {
		case <-entered:
		case err := <-done:
			t.Fatalf("a held write ended early: %v", err)
		case <-time.After(30 * time.Second):
			t.Fatalf("only %d of %d writes began", i, sqlstore.BranchInFlight)
		}
	}

	// The other branch writes while this one's bound is full.
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	tk, err := other.TakeTicket(ctx, "A", 0, "test")
	cancel()
	if err != nil || tk.Number == "" {
		t.Fatalf("the other branch could not take a number while this one waited: %v", err)
	}

	// The waiting writes hold no connection and have not begun.
	sqlDB, _ := s.DB().DB()
	if inUse := sqlDB.Stats().InUse; inUse != sqlstore.BranchInFlight {
		t.Fatalf("%d connections in use, want the %d writes in flight", inUse, sqlstore.BranchInFlight)
	}
	select {
	case <-entered:
		t.Fatalf("a write past the bound of %d began", sqlstore.BranchInFlight)
	case <-time.After(300 * time.Millisecond):
	}

	// A caller that gives up while waiting is answered with its error.
	ctx, cancel = context.WithTimeout(bg, 200*time.Millisecond)
	err = s.HoldWrite(ctx, entered, release)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) && model.ErrorCode(err) != model.EUnavailable {
		t.Fatalf("a write given up while waiting: %v", err)
	}

	close(release)
	for i := 0; i < n; i++ {
		if err := <-done; err != nil {
			t.Fatalf("held write %d: %v", i, err)
		}
	}
	if len(entered) != n-sqlstore.BranchInFlight {
		t.Fatalf("%d waiting writes ran, want %d", len(entered), n-sqlstore.BranchInFlight)
	}
}

// Only PostgreSQL's writes are bounded so (BranchInFlight), in the Store
// and in each Branch made from it.
func TestInFlightBoundPerEngine(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		want := 0
		if s.Engine() == "postgres" {
			want = sqlstore.BranchInFlight
		}
		b, err := s.Branch(bg, "B001")
		okAny(t, err)
		defer b.Close()
		if got, gotBranch := sqlstore.InFlightBound(s), sqlstore.InFlightBound(b); got != want || gotBranch != want {
			t.Fatalf("%s: bound %d, its Branch %d, want %d", s.Engine(), got, gotBranch, want)
		}
	})
}
