package sqlstore_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Several hosts (separate Stores, as separate processes would be) race to
// claim the same days' automatic health check: for every day exactly one
// wins, and once it is done nobody claims it again.
func TestHealthCheckClaimedOncePerDay(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		const hosts, days = 4, 12
		stores := openStores(t, dsn, hosts)
		for d := 0; d < days; d++ {
			date := fmt.Sprintf("2026-10-%02d", d+1)
			var mu sync.Mutex
			var winners []int
			var wg sync.WaitGroup
			start := make(chan struct{})
			for h, s := range stores {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					won, err := s.ClaimHealthCheck(bg, date, fmt.Sprintf("host%d", h), 10*time.Minute)
					if err != nil {
						t.Errorf("host %d claiming %s: %v", h, date, err)
						return
					}
					if won {
						mu.Lock()
						winners = append(winners, h)
						mu.Unlock()
					}
				}()
			}
			close(start)
			wg.Wait()
			if len(winners) != 1 {
				t.Fatalf("%s claimed by hosts %v, want exactly one", date, winners)
			}
			w := winners[0]
			okAny(t, stores[w].RecordHealthCheck(bg, model.HealthCheck{Date: date, At: time.Now(), Host: "h", Dir: "/x", Taken: 3}, fmt.Sprintf("host%d", w)))
			for h, s := range stores {
				if won, err := s.ClaimHealthCheck(bg, date, fmt.Sprintf("late%d", h), 0); err != nil || won {
					t.Fatalf("after %s was done host %d claimed it again (%v, %v)", date, h, won, err)
				}
			}
		}
		var rows int64
		okAny(t, stores[0].DB().Raw("SELECT COUNT(*) FROM health_check").Scan(&rows).Error)
		if rows != days {
			t.Fatalf("%d rows for %d days", rows, days)
		}
		done, err := stores[0].HealthChecksDone(bg, []string{"2026-10-01", "2026-10-12", "2026-10-13"})
		if err != nil || !done["2026-10-01"] || !done["2026-10-12"] || done["2026-10-13"] {
			t.Fatalf("done = %v (%v)", done, err)
		}
	})
}

// A host that died mid-check leaves a claim; after the lease another takes
// the day over, and the first can no longer mark it done.
func TestHealthCheckClaimTakenOverAfterLease(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		const date = "2026-11-02"
		lease := 10 * time.Minute
		won, err := s.ClaimHealthCheck(bg, date, "first", lease)
		if err != nil || !won {
			t.Fatalf("first claim: %v %v", won, err)
		}
		if won, err := s.ClaimHealthCheck(bg, date, "second", lease); err != nil || won {
			t.Fatalf("second claim inside the lease won (%v, %v)", won, err)
		}
		s.ShiftClock(lease + time.Second)
		if won, err := s.ClaimHealthCheck(bg, date, "second", lease); err != nil || !won {
			t.Fatalf("second claim after the lease: %v %v", won, err)
		}
		err = s.RecordHealthCheck(bg, model.HealthCheck{Date: date, At: time.Now()}, "first")
		if model.ErrorCode(err) != model.EConflict {
			t.Fatalf("the first holder recorded after the takeover: %v", err)
		}
		okAny(t, s.RecordHealthCheck(bg, model.HealthCheck{Date: date, At: time.Now(), Taken: 5, Stuck: 2, Flagged: true,
			PassedOver: []string{"A", "V"}, Host: "pc1", Dir: "/data/health"}, "second"))
		got, err := s.LastHealthCheck(bg)
		if err != nil {
			t.Fatal(err)
		}
		if got.Date != date || got.Stuck != 2 || !got.Flagged || len(got.PassedOver) != 2 || got.PassedOver[1] != "V" ||
			got.Dir != "/data/health" || len(got.Files) != 4 {
			t.Fatalf("last check = %+v", got)
		}
	})
}

// A check on demand records what it found without finishing the day's
// automatic run, and the last check shown prefers a day with tickets.
func TestHealthCheckOnDemandAndLast(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		if _, err := s.LastHealthCheck(bg); model.ErrorCode(err) != model.ENotFound {
			t.Fatalf("no check yet gave %v", err)
		}
		okAny(t, s.RecordHealthCheck(bg, model.HealthCheck{Date: "2026-11-07", At: time.Now(), Taken: 40, Stuck: 1, Flagged: true, Dir: "d"}, ""))
		if won, err := s.ClaimHealthCheck(bg, "2026-11-07", "host", time.Minute); err != nil || !won {
			t.Fatalf("the day checked on demand could not be claimed for its automatic run: %v %v", won, err)
		}
		okAny(t, s.RecordHealthCheck(bg, model.HealthCheck{Date: "2026-11-08", At: time.Now()}, "")) // a closed Sunday
		got, err := s.LastHealthCheck(bg)
		if err != nil || got.Date != "2026-11-07" || !got.Flagged {
			t.Fatalf("last = %+v (%v), want Saturday's flagged check", got, err)
		}
	})
}

// A PC with a long fully qualified name (up to 255 bytes on Windows)
// claims, records and keeps its claim on every engine: the columns hold
// host + "/" + 12 hex digits whole, so a strict engine does not refuse it
// and a lax one does not cut it (which would make the holder a stranger to
// its own claim). A holder past the limit is refused in one sentence.
func TestHealthCheckLongHostName(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		const date = "2026-11-09"
		host := model.HealthHost(strings.Repeat("branch-pc-0042.", 20) + "corp.example.com")
		if len(host) != 255 {
			t.Fatalf("cut host is %d bytes", len(host))
		}
		holder := host + "/0123456789ab"
		if won, err := s.ClaimHealthCheck(bg, date, holder, 10*time.Minute); err != nil || !won {
			t.Fatalf("long holder's claim: %v %v", won, err)
		}
		if won, err := s.ClaimHealthCheck(bg, date, "other", 10*time.Minute); err != nil || won {
			t.Fatalf("another PC took the long holder's live claim (%v, %v)", won, err)
		}
		okAny(t, s.RecordHealthCheck(bg, model.HealthCheck{Date: date, At: time.Now(), Host: host, Dir: "/d", Taken: 1}, holder))
		got, err := s.LastHealthCheck(bg)
		if err != nil || got.Host != host {
			t.Fatalf("host read back as %d bytes (%v)", len(got.Host), err)
		}
		if done, err := s.HealthChecksDone(bg, []string{date}); err != nil || !done[date] {
			t.Fatalf("the long holder's run is not done: %v %v", done, err)
		}
		if _, err := s.ClaimHealthCheck(bg, "2026-11-10", strings.Repeat("x", model.HealthHolderMax+1), time.Minute); model.ErrorCode(err) != model.EInvalidInput {
			t.Fatalf("an overlong holder gave %v", err)
		}
	})
}

// The last check is the last closed day's automatic run: a newer day
// checked on demand (with tickets, fine) does not replace Saturday's flag.
func TestLastHealthCheckPrefersADoneDay(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		const sat, sun = "2026-11-07", "2026-11-08"
		if won, err := s.ClaimHealthCheck(bg, sat, "host", time.Minute); err != nil || !won {
			t.Fatalf("claim: %v %v", won, err)
		}
		okAny(t, s.RecordHealthCheck(bg, model.HealthCheck{Date: sat, At: time.Now(), Taken: 40, Stuck: 1, Flagged: true, Dir: "d"}, "host"))
		okAny(t, s.RecordHealthCheck(bg, model.HealthCheck{Date: sun, At: time.Now(), Taken: 12, Dir: "d"}, ""))
		got, err := s.LastHealthCheck(bg)
		if err != nil || got.Date != sat || !got.Flagged {
			t.Fatalf("last = %+v (%v), want Saturday's done, flagged check", got, err)
		}
	})
}

// Recording a check writes one "health" event on the gap-free path (its
// date as the detail), which a snapshot follows without a reload; a
// refused record (the claim lost) writes none.
func TestRecordingACheckWritesOneEvent(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		snap, err := s.Snapshot(bg)
		if err != nil {
			t.Fatal(err)
		}
		okAny(t, s.RecordHealthCheck(bg, model.HealthCheck{Date: "2026-11-02", At: time.Now(), Taken: 3, Dir: "d"}, ""))
		if err := s.RecordHealthCheck(bg, model.HealthCheck{Date: "2026-11-03", At: time.Now()}, "nobody"); model.ErrorCode(err) != model.EConflict {
			t.Fatalf("a record without the claim gave %v", err)
		}
		evs, err := s.EventsSince(bg, snap.Version, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != 1 || evs[0].Kind != model.EvHealth || evs[0].Version != snap.Version+1 || !strings.Contains(evs[0].Detail, "2026-11-02") {
			t.Fatalf("events after the record: %+v", evs)
		}
		if !snap.Apply(evs[0]) || snap.Version != evs[0].Version {
			t.Fatalf("the snapshot does not follow a health event: version %d", snap.Version)
		}
	})
}
