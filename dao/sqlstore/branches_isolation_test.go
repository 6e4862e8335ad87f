package sqlstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Two branches of one database take and call at once, through stores that
// share a pool (one process serving both) and one of its own (a branch PC
// on the central database). Each numbers from its own start; no ticket,
// event, snapshot, setting or zone of one is seen by the other.
func TestTwoBranchesConcurrently(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		s1, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		defer s1.Close()
		_, err = s1.AddBranch(bg, model.BranchInfo{Code: "BJ001", Name: "北京分行", TimeZone: "Pacific/Kiritimati"}, "")
		okAny(t, err)
		s2, err := s1.Branch(bg, "BJ001")
		okAny(t, err)
		defer s2.Close()
		pc2, err := sqlstore.OpenBranch(bg, dsn, "BJ001")
		okAny(t, err)
		defer pc2.Close()
		svc, _ := s2.Services(bg)
		svc[0].StartNo = 100 // branch 2's A numbers from 100, branch 1's from 1
		_, err = s2.SaveService(bg, svc[0])
		okAny(t, err)
		okAny(t, pc2.SetSetting(bg, "notice", "北京分行通知"))

		ctx, cancel := context.WithTimeout(bg, 60*time.Second)
		defer cancel()
		w1, err := s1.Watch(ctx, 0)
		okAny(t, err)
		w2, err := s2.Watch(ctx, 0)
		okAny(t, err)

		const perBranch = 24
		type result struct {
			branch int
			tk     model.Ticket
			err    error
		}
		results := make(chan result, 4*perBranch)
		var wg sync.WaitGroup
		branches := [][]*sqlstore.GormStore{{s1}, {s2, pc2}}
		for b, stores := range branches {
			for g := range 4 { // four kiosks a branch
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range perBranch / 4 {
						tk, err := stores[(g+i)%len(stores)].TakeTicket(ctx, "A", 0, "test")
						results <- result{b, tk, err}
					}
				}()
			}
		}
		wg.Wait()
		// Four windows a branch call everything at once.
		called := make(chan result, 2*perBranch+8)
		for b, stores := range branches {
			for w := 1; w <= 4; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					st := stores[w%len(stores)]
					for {
						tk, err := st.CallNext(ctx, w, "")
						if model.IsCode(err, model.EQueueEmpty) {
							return
						}
						called <- result{b, tk, err}
						if err != nil {
							return
						}
					}
				}()
			}
		}
		wg.Wait()
		close(results)
		close(called)

		mine := [2]map[int64]bool{{}, {}}
		numbers := [2]map[string]bool{{}, {}}
		for r := range results {
			okAny(t, r.err)
			mine[r.branch][r.tk.ID] = true
			numbers[r.branch][r.tk.Number] = true
		}
		for b, start := range []int{1, 100} {
			for i := range perBranch {
				if n := fmt.Sprintf("A%03d", start+i); !numbers[b][n] {
					t.Fatalf("branch %d never took %s: %v", b+1, n, numbers[b])
				}
			}
		}
		calls := [2]int{}
		for r := range called {
			okAny(t, r.err)
			if !mine[r.branch][r.tk.ID] {
				t.Fatalf("branch %d called %s, a ticket it never took", r.branch+1, r.tk.Number)
			}
			calls[r.branch]++
		}
		if calls != [2]int{perBranch, perBranch} {
			t.Fatalf("calls %v, want %d each", calls, perBranch)
		}

		stores := [2]*sqlstore.GormStore{s1, pc2}
		for b, st := range stores {
			other := stores[1-b]
			for id := range mine[b] {
				if _, err := other.Ticket(bg, id); model.ErrorCode(err) != model.ENotFound {
					t.Fatalf("branch %d read branch %d's ticket %d: %v", 2-b, b+1, id, err)
				}
				tk, err := st.Ticket(bg, id)
				okAny(t, err)
				if _, err := other.TicketByPublicID(bg, tk.PublicID); model.ErrorCode(err) != model.ENotFound {
					t.Fatalf("branch %d found branch %d's customer page: %v", 2-b, b+1, err)
				}
				if _, err := other.Finish(bg, id, 1); model.ErrorCode(err) != model.ENotFound {
					t.Fatalf("branch %d finished branch %d's ticket: %v", 2-b, b+1, err)
				}
			}
			evs, err := st.EventsSince(bg, 0, 1000)
			okAny(t, err)
			for _, e := range evs {
				if e.TicketID != 0 && !mine[b][e.TicketID] {
					t.Fatalf("branch %d's log holds %s of ticket %d", b+1, e.Kind, e.TicketID)
				}
			}
			snap, err := st.Snapshot(bg)
			okAny(t, err)
			if snap.Version != int64(len(evs)) || snap.Version < 2*perBranch {
				t.Fatalf("branch %d at version %d with %d events", b+1, snap.Version, len(evs))
			}
			for _, tk := range snap.RecentCalls {
				if !mine[b][tk.ID] {
					t.Fatalf("branch %d's snapshot shows %s of the other branch", b+1, tk.Number)
				}
			}
			for _, w := range snap.Windows {
				if w.Current != nil && !mine[b][w.Current.ID] {
					t.Fatalf("branch %d's window %d holds the other branch's %s", b+1, w.Number, w.Current.Number)
				}
			}
		}
		if snap, _ := s1.Snapshot(bg); snap.Notice != "" || snap.TimeZone != "Asia/Shanghai" {
			t.Fatalf("branch 1 shows notice %q in %s", snap.Notice, snap.TimeZone)
		}
		if snap, _ := s2.Snapshot(bg); snap.Notice != "北京分行通知" || snap.TimeZone != "Pacific/Kiritimati" {
			t.Fatalf("branch 2 shows notice %q in %s", snap.Notice, snap.TimeZone)
		}

		// Each watch saw its own branch's events only, all of them.
		for b, w := range []<-chan model.Event{w1, w2} {
			seen := 0
			for seen < 2*perBranch {
				select {
				case e := <-w:
					if e.TicketID != 0 && !mine[b][e.TicketID] {
						t.Fatalf("branch %d's watch delivered %s of ticket %d", b+1, e.Kind, e.TicketID)
					}
					if e.Kind == model.EvTake || e.Kind == model.EvCall {
						seen++
					}
				case <-ctx.Done():
					t.Fatalf("branch %d's watch saw %d takes and calls", b+1, seen)
				}
			}
		}
	})
}

// A database from before codes (no code column, or a branch with none)
// gets B001 for its branch when a PC of the new version opens it, and
// keeps working with no code given.
func TestExistingBranchGetsCode(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		s, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		if s.Engine() == "sqlite" { // SQLite drops no column an index still names
			okAny(t, s.DB().Exec("DROP INDEX ux_branch_code").Error)
		}
		okAny(t, s.DB().Exec("ALTER TABLE branch DROP COLUMN code").Error)
		s.Close()
		s, err = sqlstore.Open(bg, dsn)
		okAny(t, err)
		if code, _ := s.BranchCode(bg); code != "B001" {
			t.Fatalf("the column added again gave branch 1 %q", code)
		}
		okAny(t, s.DB().Exec("UPDATE branch SET code = '' WHERE id = 1").Error)
		s.Close()
		again, err := sqlstore.OpenBranch(bg, dsn, "")
		okAny(t, err)
		defer again.Close()
		code, err := again.BranchCode(bg)
		okAny(t, err)
		if code != "B001" || again.BranchID() != 1 {
			t.Fatalf("the old branch got %q (branch %d)", code, again.BranchID())
		}
	})
}
