package sqlstore_test

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// BenchmarkTakeTicket: one kiosk's take, per engine.
func BenchmarkTakeTicket(b *testing.B) {
	eachBench(b, func(b *testing.B, s *sqlstore.GormStore) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := s.TakeTicket(bg, "A", 0, "bench"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCallNext: 1, 16 and 64 windows calling in parallel over a full
// queue, per engine.
func BenchmarkCallNext(b *testing.B) {
	for _, windows := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("windows=%d", windows), func(b *testing.B) {
			eachBench(b, func(b *testing.B, s *sqlstore.GormStore) {
				for w := 1; w <= windows; w++ {
					if _, err := s.SaveWindow(bg, model.Window{Number: w, Name: "W", Services: []string{"A"}}); err != nil {
						b.Fatal(err)
					}
				}
				takeN(b, s, b.N+windows)
				var next atomic.Int64
				b.SetParallelism((windows + 1) / 2) // two cores: 1, 16 and 64 callers
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					window := int(next.Add(1)-1)%windows + 1
					for pb.Next() {
						if _, err := s.CallNext(bg, window, ""); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		})
	}
}

// BenchmarkTakeWithWaiting: what a kiosk's take costs (the number, then
// the people ahead for the ticket) with 20 and with 20,000 already waiting
// for the same service. The two must be close: the count of people ahead
// is bounded.
func BenchmarkTakeWithWaiting(b *testing.B) {
	for _, waiting := range []int{20, 20000} {
		b.Run(fmt.Sprintf("waiting=%d", waiting), func(b *testing.B) {
			eachBench(b, func(b *testing.B, s *sqlstore.GormStore) {
				waitingQueue(b, s, waiting)
				// As the engine's background analysis would within a
				// minute: the queue a branch has, not a brand-new table.
				if err := s.RefreshStatistics(bg); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t, err := s.TakeTicket(bg, "A", 0, "bench")
					if err != nil {
						b.Fatal(err)
					}
					p, err := s.Position(bg, t.ID)
					if err != nil {
						b.Fatal(err)
					}
					if want := min(waiting+i, model.MaxAhead); p.Ahead != want {
						b.Fatalf("take %d has %d ahead, want %d", i, p.Ahead, want)
					}
				}
			})
		})
	}
}

// BenchmarkTakeOtherServiceWaiting: what a take of A costs (the number,
// then the people ahead) with 20 and with 20,000 waiting for B, served at
// windows of its own. The B queue is not ahead of A: the take must not
// walk it, so the two must be close.
func BenchmarkTakeOtherServiceWaiting(b *testing.B) {
	for _, other := range []int{20, 20000} {
		b.Run(fmt.Sprintf("other=%d", other), func(b *testing.B) {
			eachBench(b, func(b *testing.B, s *sqlstore.GormStore) {
				for w, svc := range []string{"A", "A", "B", "B"} { // every window of the hall
					if _, err := s.SaveWindow(bg, model.Window{Number: w + 1, Name: "W", Services: []string{svc}}); err != nil {
						b.Fatal(err)
					}
				}
				waitingQueueOf(b, s, "B", other)
				if err := s.RefreshStatistics(bg); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t, err := s.TakeTicket(bg, "A", 0, "bench")
					if err != nil {
						b.Fatal(err)
					}
					p, err := s.Position(bg, t.ID)
					if err != nil {
						b.Fatal(err)
					}
					if want := min(i, model.MaxAhead); p.Ahead != want {
						b.Fatalf("take %d has %d ahead, want %d", i, p.Ahead, want)
					}
				}
			})
		})
	}
}

// waitingQueue puts n tickets of service A in the queue.
func waitingQueue(b *testing.B, s *sqlstore.GormStore, n int) {
	b.Helper()
	waitingQueueOf(b, s, "A", n)
}

// waitingQueueOf puts n tickets of service in the queue: the first is a
// real take, the rest copies of it with the next numbers and places, in
// multi-row INSERTs with the sequence row moved to match, so a 20,000-ticket
// queue costs seconds instead of 20,000 durable takes (minutes on MariaDB).
// Only the benchmarks and plan tests do this; real tickets come from
// TakeTicket.
func waitingQueueOf(b testing.TB, s *sqlstore.GormStore, service string, n int) {
	b.Helper()
	first, err := s.TakeTicket(bg, service, 0, "bench")
	if err != nil {
		b.Fatal(err)
	}
	var row struct {
		IssueServiceID, ServiceID, SortKey int64
		BusinessDate                       string
		Priority, Lane                     int
		IssuedAt                           time.Time
	}
	if err := s.DB().Raw("SELECT issue_service_id, service_id, sort_key, business_date, priority, lane, issued_at FROM ticket WHERE id = ?", first.ID).Scan(&row).Error; err != nil {
		b.Fatal(err)
	}
	const cols = "branch_id, issue_service_id, business_date, seq_no, service_id, number, priority, status, lane, sort_key, call_count, public_id, source, issued_at"
	const perInsert = 100 // 14 parameters a row, under every engine's limit
	for from := 2; from <= n; from += perInsert {
		var values []string
		var args []any
		for seq := from; seq < from+perInsert && seq <= n; seq++ {
			values = append(values, "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			// Places just after the first: before any number taken later.
			args = append(args, int64(1), row.IssueServiceID, row.BusinessDate, seq, row.ServiceID, fmt.Sprintf("%s%05d", service, seq),
				row.Priority, int(model.Waiting), row.Lane, row.SortKey+int64(seq), 0, fmt.Sprintf("bench%s%026d", service, seq), "bench", row.IssuedAt)
		}
		if err := s.DB().Exec("INSERT INTO ticket ("+cols+") VALUES "+strings.Join(values, ", "), args...).Error; err != nil {
			b.Fatal(err)
		}
	}
	if err := s.DB().Exec("UPDATE ticket_sequence SET last_no = ? WHERE branch_id = 1 AND service_id = ? AND business_date = ?",
		n, row.IssueServiceID, row.BusinessDate).Error; err != nil {
		b.Fatal(err)
	}
	// Written past the store, with no events: the first take's kept
	// reading knows nothing of them.
	s.ForgetTakeReading()
}

// takeN issues n numbers of service A from 8 kiosks at once.
func takeN(b *testing.B, s *sqlstore.GormStore, n int) {
	b.Helper()
	var left atomic.Int64
	left.Store(int64(n))
	var wg sync.WaitGroup
	for k := 0; k < 8; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left.Add(-1) >= 0 {
				if _, err := s.TakeTicket(bg, "A", 0, "bench"); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func eachBench(b *testing.B, fn func(b *testing.B, s *sqlstore.GormStore)) {
	for _, engine := range daotest.Engines() {
		b.Run(engine, func(b *testing.B) {
			dsn := daotest.BenchDSN(b, engine)
			s, err := sqlstore.Open(bg, dsn)
			if err != nil {
				b.Fatal(fmt.Errorf("%s: %w", engine, err))
			}
			defer s.Close()
			fn(b, s)
		})
	}
}

// BenchmarkSweepAlerts: one sweep that moves nothing, the cost every PC
// on the database pays every two seconds, with the day's tickets the alert
// rules count (3,000 waiting: a busy day) and one alert open. "quiet": no
// change since the last sweep, the alerts are not decided again; "changed":
// an event was logged before each sweep, they are.
func BenchmarkSweepAlerts(b *testing.B) {
	for _, changed := range []bool{false, true} {
		name := map[bool]string{false: "quiet", true: "changed"}[changed]
		b.Run(name, func(b *testing.B) {
			eachBench(b, func(b *testing.B, s *sqlstore.GormStore) {
				waitingQueue(b, s, 3000)
				if err := s.SetSetting(bg, "idle_window_timeout_s", "0"); err != nil {
					b.Fatal(err)
				}
				if err := s.RefreshStatistics(bg); err != nil {
					b.Fatal(err)
				}
				s.ShiftClock(2 * time.Minute) // the idle windows count: an alert is open
				if r, err := s.Sweep(bg); err != nil || r.Alerts != 1 {
					b.Fatalf("first sweep %+v (%v), want one alert", r, err)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if changed {
						b.StopTimer()
						if err := s.ReportDevice(bg, "led", ""); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
					}
					if r, err := s.Sweep(bg); err != nil || r.Alerts != 0 {
						b.Fatalf("sweep %+v (%v)", r, err)
					}
				}
			})
		})
	}
}
