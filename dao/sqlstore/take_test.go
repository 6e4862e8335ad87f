package sqlstore_test

import (
	"sort"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Test 2: 8 kiosks take 1,000 numbers concurrently: sequence 1..1000,
// unique and contiguous, with the number formatted from it.
func TestConcurrentTake(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		const kiosks, total = 8, 1000
		var mu sync.Mutex
		var seqs []int
		numbers := map[string]bool{}
		var wg sync.WaitGroup
		errs := make(chan error, kiosks)
		for k := 0; k < kiosks; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < total/kiosks; i++ {
					tk, err := s.TakeTicket(bg, "A", 0, "kiosk")
					if err != nil {
						errs <- err
						return
					}
					mu.Lock()
					seqs = append(seqs, tk.SeqNo)
					numbers[tk.Number] = true
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		sort.Ints(seqs)
		for i, n := range seqs {
			if n != i+1 {
				t.Fatalf("sequence %d at position %d: not 1..%d contiguous", n, i, total)
			}
		}
		assertIssueOrderFollowsNumbers(t, s)
		if len(numbers) != total || !numbers["A001"] || !numbers["A1000"] {
			t.Fatalf("%d distinct numbers; A001 %v A1000 %v", len(numbers), numbers["A001"], numbers["A1000"])
		}
		var dbCount, dbMax int
		s.DB().Raw("SELECT COUNT(DISTINCT seq_no) FROM ticket").Scan(&dbCount)
		s.DB().Raw("SELECT MAX(seq_no) FROM ticket").Scan(&dbMax)
		if dbCount != total || dbMax != total {
			t.Fatalf("database holds %d distinct, max %d", dbCount, dbMax)
		}
		assertAheadBounded(t, s)
	})
}

// With 1,000 waiting the people ahead are counted exactly up to
// model.MaxAhead and shown as "999+" past it: the count never walks the
// whole queue.
func assertAheadBounded(t *testing.T, s *sqlstore.GormStore) {
	t.Helper()
	var mid []int64
	s.DB().Raw("SELECT id FROM ticket WHERE seq_no = 500").Scan(&mid)
	last, err := s.TakeTicket(bg, "A", 0, "kiosk")
	if err != nil || len(mid) != 1 {
		t.Fatalf("take: %v (%d tickets at seq 500)", err, len(mid))
	}
	if p, err := s.Position(bg, mid[0]); err != nil || p.Ahead != 499 || p.AheadText() != "499" {
		t.Fatalf("A500 has %+v ahead (%v), want 499", p, err)
	}
	if p, err := s.Position(bg, last.ID); err != nil || p.Ahead != model.MaxAhead || p.AheadText() != "999+" {
		t.Fatalf("A1001 has %+v ahead (%v), want the bound %d shown as 999+", p, err, model.MaxAhead)
	}
}

// Test 4: with the database clock moved across the branch's midnight,
// numbering restarts at start_no for the new date with no duplicate.
func TestMidnightRestartsNumbering(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		if _, err := s.SaveService(bg, model.Service{Code: "A", Name: "个人业务", Priority: 5, StartNo: 101, Enabled: true, SortOrder: 1}); err != nil {
			t.Fatal(err)
		}
		now, err := s.Now(bg)
		if err != nil {
			t.Fatal(err)
		}
		local := now.In(s.Location())
		midnight := time.Date(local.Year(), local.Month(), local.Day()+1, 0, 0, 0, 0, s.Location())
		s.ShiftClock(midnight.Sub(now) - 2*time.Second) // two seconds before midnight
		a := take(t, s, "A", 0)
		b := take(t, s, "A", 0)
		s.ShiftClock(3 * time.Second) // one second after
		c := take(t, s, "A", 0)
		d := take(t, s, "A", 0)
		if a.Number != "A101" || b.Number != "A102" {
			t.Fatalf("before midnight got %s %s, want A101 A102", a.Number, b.Number)
		}
		if c.Number != "A101" || d.Number != "A102" || c.BusinessDate == a.BusinessDate {
			t.Fatalf("after midnight got %s %s on %s (before: %s)", c.Number, d.Number, c.BusinessDate, a.BusinessDate)
		}
		if want := midnight.Format("2006-01-02"); c.BusinessDate != want {
			t.Fatalf("business date %s, want %s in the branch zone", c.BusinessDate, want)
		}
		// Yesterday's waiting tickets are not called today.
		first, err := s.CallNext(bg, 1, "A")
		if err != nil || first.ID != c.ID {
			t.Fatalf("first call after midnight got %+v %v, want %s of the new day", first.Number, err, c.Number)
		}
	})
}

func TestPriorityDefaultsAndVIP(t *testing.T) {
	s := daotest.SQLite(t)
	a := take(t, s, "A", 0)
	v := take(t, s, "V", 0)
	vipA := take(t, s, "A", 1)
	if a.Priority != 5 || v.Priority != 1 || vipA.Priority != 1 {
		t.Fatalf("priorities %d %d %d", a.Priority, v.Priority, vipA.Priority)
	}
	if len(a.PublicID) != 32 || a.PublicID == v.PublicID {
		t.Fatalf("public ids %q %q", a.PublicID, v.PublicID)
	}
	got, err := s.TicketByPublicID(bg, v.PublicID)
	if err != nil || got.ID != v.ID {
		t.Fatalf("by public id: %+v %v", got, err)
	}
}
