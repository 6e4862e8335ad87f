package sqlstore_test

import (
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
)

// A follower's waiting counts stay those of a fresh snapshot when the
// manager cancels a number left waiting from yesterday: the store counts
// today's numbers, and so must the hall and the dashboard that follow it.
func TestFollowedWaitingIgnoresYesterdaysNumber(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		old := val(s.TakeTicket(bg, "A", 0, "test"))(t)
		s.ShiftClock(24 * time.Hour)
		val(s.TakeTicket(bg, "A", 0, "test"))(t)
		followed := val(s.Snapshot(bg))(t)
		val(s.Cancel(bg, old.ID, 0))(t) // the manager cleans up yesterday
		for _, ev := range val(s.EventsSince(bg, followed.Version, 100))(t) {
			if !followed.Apply(ev) {
				t.Fatalf("event %d asked for a reload", ev.Version)
			}
		}
		fresh := val(s.Snapshot(bg))(t)
		for i, c := range fresh.Services {
			if got := followed.Services[i]; got.Waiting != c.Waiting || got.Taken != c.Taken {
				t.Fatalf("service %s: followed waiting %d taken %d, fresh snapshot %d and %d", c.Code, got.Waiting, got.Taken, c.Waiting, c.Taken)
			}
		}
	})
}
