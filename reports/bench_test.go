package reports_test

import (
	"context"
	"fmt"
	"os"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/reports"
)

// EnvBenchMillion enables the benchmark that first loads a million rows of
// history (about a minute of setup on two cores).
const EnvBenchMillion = "JIAOHAO_BENCH_MILLION"

// EnvBenchEngine runs the benchmarks on "postgres", "mysql" or
// "sqlserver" (a fresh database on the server named by the daotest DSN
// variable) instead of SQLite.
const EnvBenchEngine = "JIAOHAO_BENCH_ENGINE"

func benchStore(b *testing.B) *sqlstore.GormStore {
	env := daotest.ServerEnv(os.Getenv(EnvBenchEngine))
	if env == "" {
		return daotest.SQLite(b)
	}
	dsn := os.Getenv(env)
	if dsn == "" {
		b.Fatalf("%s=%s needs %s", EnvBenchEngine, os.Getenv(EnvBenchEngine), env)
	}
	st, err := sqlstore.Open(context.Background(), daotest.FreshDatabase(b, dsn))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// BenchmarkDailyReport: one day of 3,000 tickets played through the Store,
// then the whole report: queries, figures, PDF and CSV.
func BenchmarkDailyReport(b *testing.B) {
	st := benchStore(b)
	seed(b, st, seededDay, 3000)
	p, _ := reports.Day(seededDay, st.Location())
	benchReport(b, st, p, 3000)
}

// BenchmarkMonthReport: a 31-day range over 100,000 tickets.
func BenchmarkMonthReport(b *testing.B) {
	st := benchStore(b)
	p := monthOfTickets(b, st)
	benchReport(b, st, p, 100000)
}

// BenchmarkMonthReportMillionHistory: the same month with a million older
// tickets in ticket_history; the range scan must not notice them.
func BenchmarkMonthReportMillionHistory(b *testing.B) {
	if os.Getenv(EnvBenchMillion) != "1" {
		b.Skipf("set %s=1 to load a million history rows first", EnvBenchMillion)
	}
	st := benchStore(b)
	p := monthOfTickets(b, st)
	start, _ := time.ParseInLocation("2006-01-02", "2025-04-01", st.Location())
	bulkTickets(b, st, "ticket_history", start, 334, 3000, 10_000_000)
	benchReport(b, st, p, 100000)
}

// BenchmarkMonthReportMillion: a month of a million tickets (32,259 a day,
// loaded in multi-row INSERTs, not through seed-day), reported whole. It
// reports the peak live heap during the report as peak_heap_MB.
func BenchmarkMonthReportMillion(b *testing.B) {
	if os.Getenv(EnvBenchMillion) != "1" {
		b.Skipf("set %s=1 to load a million tickets first", EnvBenchMillion)
	}
	st := benchStore(b)
	start, _ := time.ParseInLocation("2006-01-02", "2026-03-01", st.Location())
	bulkTickets(b, st, "ticket", start, 31, 32259, 0)
	p, err := reports.NewPeriod("2026-03-01", "2026-03-31", st.Location())
	if err != nil {
		b.Fatal(err)
	}
	stop := watchPeakHeap()
	benchReport(b, st, p, 1_000_000)
	b.ReportMetric(float64(stop())/(1<<20), "peak_heap_MB")
}

// watchPeakHeap samples the live heap every 5 ms until the returned
// function is called, which gives the largest sample.
func watchPeakHeap() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		return peak.Load()
	}
}

// monthOfTickets bulk-loads 31 days of about 3,226 tickets each.
func monthOfTickets(b *testing.B, st *sqlstore.GormStore) reports.Period {
	start, _ := time.ParseInLocation("2006-01-02", "2026-03-01", st.Location())
	bulkTickets(b, st, "ticket", start, 31, 100000/31+1, 0)
	p, err := reports.NewPeriod("2026-03-01", "2026-03-31", st.Location())
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func benchReport(b *testing.B, st *sqlstore.GormStore, p reports.Period, min int) {
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		r, err := reports.Generate(ctx, st, p, reports.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if r.Totals.Taken < min {
			b.Fatalf("the report counted %d tickets, want at least %d", r.Totals.Taken, min)
		}
		if _, err := reports.PDF(r, reports.LangZH); err != nil {
			b.Fatal(err)
		}
		if _, err := reports.CSV(r); err != nil {
			b.Fatal(err)
		}
	}
}

var benchColumns = []string{"branch_id", "issue_service_id", "business_date", "seq_no", "service_id", "number",
	"priority", "status", "lane", "sort_key", "window_no", "call_count", "public_id", "source", "issued_at",
	"called_at", "serve_started_at", "finished_at"}

// bulkTickets inserts perDay finished-looking tickets for days days from
// start, straight into table with multi-row INSERTs (firstID 0 lets the
// database number them). Only benchmarks do this: real tickets come from
// the Store.
func bulkTickets(b *testing.B, st *sqlstore.GormStore, table string, start time.Time, days, perDay int, firstID int64) {
	b.Helper()
	services, err := st.Services(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	cols := benchColumns
	if firstID > 0 {
		cols = append([]string{"id"}, cols...)
	}
	const rowsPer = 100 // under every engine's parameter limit
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",") + ")"
	stmt := fmt.Sprintf("INSERT INTO %s (%s) VALUES %s", table, strings.Join(cols, ","),
		strings.TrimSuffix(strings.Repeat(row+",", rowsPer), ","))
	var args []any
	n := int64(0)
	flush := func(tx interface{ Exec(string, ...any) error }) {
		if len(args) > 0 {
			if err := tx.Exec(stmt, args...); err != nil {
				b.Fatal(err)
			}
			args = args[:0]
		}
	}
	for d := 0; d < days; d++ {
		day := start.AddDate(0, 0, d)
		date := day.Format("2006-01-02")
		tx := st.DB().Begin()
		exec := execFunc(func(q string, a ...any) error { return tx.Exec(q, a...).Error })
		seq := map[int64]int{}
		for i := 0; i < perDay; i++ {
			n++
			svc := services[i%len(services)]
			seq[svc.ID]++
			issued := day.Add(9*time.Hour + time.Duration(int64(i)*8*3600/int64(perDay))*time.Second).UTC()
			called := issued.Add(time.Duration(n%2400) * time.Second)
			started := called.Add(30 * time.Second)
			finished := started.Add(time.Duration(120+n%480) * time.Second)
			status, window := 5, int(n%4)+1
			var c, s, f any = called, started, finished
			switch n % 50 {
			case 0: // passed
				status, s, f = 3, nil, nil
			case 1: // cancelled while waiting
				status, c, s, window = 6, nil, nil, 0
			}
			var win any = window
			if window == 0 {
				win = nil
			}
			// Public ids are unique across the database: the branch is in them.
			vals := []any{st.BranchID(), svc.ID, date, seq[svc.ID], svc.ID, fmt.Sprintf("%s%04d", svc.Code, seq[svc.ID]),
				svc.Priority, status, 2, issued.UnixMicro() * 1000, win, 1 + int(n%10/9), fmt.Sprintf("bench%04d%023d", st.BranchID(), n+firstID),
				"kiosk", issued, c, s, f}
			if firstID > 0 {
				vals = append([]any{firstID + n}, vals...)
			}
			args = append(args, vals...)
			if len(args) == rowsPer*len(cols) {
				flush(exec)
			}
		}
		if len(args) > 0 { // the day's remainder, one row at a time
			one := fmt.Sprintf("INSERT INTO %s (%s) VALUES %s", table, strings.Join(cols, ","), row)
			for i := 0; i < len(args); i += len(cols) {
				if err := tx.Exec(one, args[i:i+len(cols)]...).Error; err != nil {
					b.Fatal(err)
				}
			}
			args = args[:0]
		}
		if err := tx.Commit().Error; err != nil {
			b.Fatal(err)
		}
	}
}

type execFunc func(string, ...any) error

func (f execFunc) Exec(q string, a ...any) error { return f(q, a...) }
