package sqlstore_test

import (
	"context"
	"os"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/reports"
)

// EnvBenchBranches enables the benchmark that first loads a million
// tickets of a hundred other branches (a minute or more of setup a
// server engine on two cores).
const EnvBenchBranches = "JIAOHAO_BENCH_BRANCHES"

// BenchmarkOneBranchAmongMany: one branch's call-next and its daily report
// (the figures of the day, from the database), in a database of its own
// ("others=0") and in one beside a hundred branches of 10,000 tickets
// each ("others=100": a million tickets, 900,000 call events and as many
// archived tickets, all on the same day, a tenth waiting in the same
// services). Both databases hold the same day of the branch, 600 tickets
// with half of them served, and fresh statistics; the two are measured in
// turn, three rounds, so the machine's mood falls on both. They must be
// close: every query of a branch walks indexes that lead with branch_id.
func BenchmarkOneBranchAmongMany(b *testing.B) {
	if os.Getenv(EnvBenchBranches) != "1" {
		b.Skipf("set %s=1 to load a million tickets of other branches first", EnvBenchBranches)
	}
	eachBench(b, func(b *testing.B, alone *sqlstore.GormStore) {
		among, err := sqlstore.Open(bg, daotest.BenchDSN(b, alone.Engine()))
		if err != nil {
			b.Fatal(err)
		}
		defer among.Close()
		for _, s := range []*sqlstore.GormStore{alone, among} {
			ownDay(b, s, 600)
		}
		tpl, err := among.LastTicketID(bg)
		if err != nil {
			b.Fatal(err)
		}
		daotest.OtherBranches(b, among, 100, 10000, tpl-1) // a finished one: ownDay calls from the front
		var n int64
		if err := among.DB().Raw("SELECT COUNT(*) FROM ticket").Scan(&n).Error; err != nil || n < 1_000_000 {
			b.Fatalf("%d tickets loaded (%v), want a million and more", n, err)
		}
		for _, s := range []*sqlstore.GormStore{alone, among} {
			if err := s.RefreshStatistics(bg); err != nil {
				b.Fatal(err)
			}
		}
		for range 3 {
			for _, c := range []struct {
				name string
				s    *sqlstore.GormStore
			}{{"others=0", alone}, {"others=100", among}} {
				b.Run(c.name+"/call-next", func(b *testing.B) { benchCallOne(b, c.s) })
				b.Run(c.name+"/daily-report", func(b *testing.B) { benchDayReport(b, c.s) })
			}
		}
	})
}

// benchCallOne times call-next alone: the take before each is not counted.
func benchCallOne(b *testing.B, s *sqlstore.GormStore) {
	for b.Loop() {
		b.StopTimer()
		if _, err := s.TakeTicket(bg, "A", 0, "bench"); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.CallNext(bg, 1, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// benchDayReport times the figures of the branch's day.
func benchDayReport(b *testing.B, s *sqlstore.GormStore) {
	now, err := s.Now(bg)
	if err != nil {
		b.Fatal(err)
	}
	p, err := reports.Day(now.In(s.Location()).Format("2006-01-02"), s.Location())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r, err := reports.Generate(context.Background(), s, p, reports.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if r.Totals.Taken < 600 {
			b.Fatalf("the report counted %d tickets of the branch, want its 600 at least", r.Totals.Taken)
		}
	}
}

// ownDay gives the branch n tickets taken through the Store, the first
// half called and finished.
func ownDay(b *testing.B, s *sqlstore.GormStore, n int) {
	b.Helper()
	for i := 0; i < n; i++ {
		if _, err := s.TakeTicket(bg, []string{"A", "B", "V"}[i%3], 0, "bench"); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < n/2; i++ {
		tk, err := s.CallNext(bg, 1+i%4, "")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.StartServing(bg, tk.ID, tk.Window); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Finish(bg, tk.ID, tk.Window); err != nil {
			b.Fatal(err)
		}
	}
}
