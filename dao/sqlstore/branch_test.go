package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// The manager renames the branch and moves its zone without a restart:
// the writing Store uses the new zone at once; another PC on the same
// database follows with the configuration event (its follower's snapshot
// refreshes its calendar). A zone the program does not know is refused.
func TestSetBranchWithoutRestart(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		a, err := sqlstore.Open(bg, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		b, err := sqlstore.Open(bg, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		ctx, cancel := context.WithCancel(bg)
		defer cancel()
		seen := make(chan model.Snapshot, 16)
		f := model.NewFollower(b, func(c model.Change) { seen <- c.Snapshot })
		go f.Run(ctx)
		<-f.Loaded()

		for _, zone := range []string{"Mars/Olympus", "", "Local"} {
			if err := a.SetBranch(bg, "网点", zone); model.ErrorCode(err) != model.EInvalidInput {
				t.Fatalf("zone %q: %v, want invalid input", zone, err)
			}
		}
		if err := a.SetBranch(bg, "  ", "Asia/Shanghai"); model.ErrorCode(err) != model.EInvalidInput {
			t.Fatalf("empty name: %v", err)
		}
		// Kiritimati is UTC+14: the business date there is a day ahead of
		// Pago Pago's (UTC-11) at any moment.
		okAny(t, a.SetBranch(bg, "总行营业部", "Pacific/Kiritimati"))
		if a.Location().String() != "Pacific/Kiritimati" {
			t.Fatalf("the writing store is still in %s", a.Location())
		}
		tk := take(t, a, "A", 0)
		now, _ := a.Now(bg)
		if want := now.In(a.Location()).Format(time.DateOnly); tk.BusinessDate != want {
			t.Fatalf("ticket on %s, want %s in the new zone", tk.BusinessDate, want)
		}
		deadline := time.After(10 * time.Second)
		for {
			select {
			case s := <-seen:
				if s.Branch != "总行营业部" || s.TimeZone != "Pacific/Kiritimati" {
					continue
				}
				if b.Location().String() != "Pacific/Kiritimati" || s.BusinessDate != tk.BusinessDate {
					t.Fatalf("the other PC's store is in %s on %s, want Pacific/Kiritimati on %s", b.Location(), s.BusinessDate, tk.BusinessDate)
				}
				return
			case <-deadline:
				t.Fatal("the other PC never saw the new name and zone")
			}
		}
	})
}
