package reports_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

// EnvBenchBranches sets how many branches BenchmarkBranchesReport loads
// (default 100).
const EnvBenchBranches = "JIAOHAO_BENCH_BRANCHES"

// BenchmarkBranchesReport: N branches (100 by default) of one database,
// each with a day of 3,000 tickets loaded in multi-row INSERTs, reported
// together: every branch's queries and figures, the total, the PDF and the
// CSV. It reports the peak live heap during the report as peak_heap_MB.
func BenchmarkBranchesReport(b *testing.B) {
	n := 100
	if v := os.Getenv(EnvBenchBranches); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			b.Fatalf("%s=%q", EnvBenchBranches, v)
		}
	}
	const perDay = 3000
	ctx := context.Background()
	st := benchStore(b)
	bs := []reports.BranchSource{{Code: "B001", Src: st}}
	for i := 2; i <= n; i++ {
		code := fmt.Sprintf("BR%03d", i)
		if _, err := st.AddBranch(ctx, model.BranchInfo{Code: code, Name: "网点 " + code, TimeZone: "Asia/Shanghai"}, ""); err != nil {
			b.Fatal(err)
		}
		br, err := st.Branch(ctx, code)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { br.Close() })
		bs = append(bs, reports.BranchSource{Code: code, Src: br})
	}
	for _, x := range bs {
		gs := x.Src.(*sqlstore.GormStore)
		day, _ := time.ParseInLocation("2006-01-02", seededDay, gs.Location())
		bulkTickets(b, gs, "ticket", day, 1, perDay, 0)
	}
	stop := watchPeakHeap()
	b.ResetTimer()
	for b.Loop() {
		r, err := reports.GenerateBranches(ctx, bs, seededDay, seededDay, reports.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if r.Total.Totals.Taken != n*perDay {
			b.Fatalf("the report counted %d tickets, want %d", r.Total.Totals.Taken, n*perDay)
		}
		if _, err := reports.BranchesPDF(r, reports.LangZH); err != nil {
			b.Fatal(err)
		}
		if _, err := reports.BranchesCSV(r); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(stop())/(1<<20), "peak_heap_MB")
}
