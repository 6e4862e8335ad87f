package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"gorm.io/gorm"

	"jiaohao/model"
)

// calendarTTL bounds how long a change of the branch's zone or day start
// made by another PC on the same server database goes unseen by a Store
// that loads no snapshot meanwhile (a Follower loads one on every
// configuration event, which refreshes it at once).
const calendarTTL = 30 * time.Second

// branchCalendar is the cached business-day calendar: the zone of the
// branch row and the day_start setting, read at a moment of this process's
// monotonic clock.
type branchCalendar struct {
	cal model.Calendar
	at  time.Time
}

type calendarCache struct {
	p atomic.Pointer[branchCalendar]
}

func (c *calendarCache) set(zone string, dayStart time.Duration) model.Calendar {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		loc = time.FixedZone("CST", 8*3600) // the branch row names a zone this PC does not know
	}
	cal := model.Calendar{Loc: loc, DayStart: dayStart}
	c.p.Store(&branchCalendar{cal: cal, at: time.Now()})
	return cal
}

// stale makes the next reading load the calendar again: this Store has
// just changed it.
func (c *calendarCache) stale() {
	if b := c.p.Load(); b != nil {
		c.p.Store(&branchCalendar{cal: b.cal})
	}
}

// calendar is the branch's business-day calendar. A failed reload keeps
// the last one: the business date must not jump to UTC on a hiccup.
func (s *GormStore) calendar(ctx context.Context) model.Calendar {
	b := s.cal.p.Load()
	if b != nil && !b.at.IsZero() && time.Since(b.at) < calendarTTL {
		return b.cal
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cal, err := s.loadCalendar(s.db.WithContext(ctx))
	if err != nil && b != nil {
		return b.cal
	}
	return cal
}

// loadCalendar reads the branch row's zone and the day start.
func (s *GormStore) loadCalendar(db *gorm.DB) (model.Calendar, error) {
	var b branchRow
	if err := db.First(&b, s.branchID).Error; err != nil {
		return model.Calendar{Loc: time.UTC}, fmt.Errorf("reading the branch: %w", err)
	}
	st, err := loadSettings(db, s.branchID)
	if err != nil {
		return model.Calendar{Loc: time.UTC}, err
	}
	return s.cal.set(b.TimeZone, st.DayStart), nil
}

// Calendar is the branch's business-day calendar: its time zone and the
// local time its day starts.
func (s *GormStore) Calendar(ctx context.Context) model.Calendar { return s.calendar(ctx) }

// Location is the branch's time zone, which decides the business date.
func (s *GormStore) Location() *time.Location { return s.calendar(context.Background()).Loc }

// SetBranch renames the branch and sets its time zone. The configuration
// event makes every follower reload its snapshot, which carries the name
// and zone, and refreshes each PC's Store calendar on the way.
func (s *GormStore) SetBranch(ctx context.Context, name, zone string) error {
	if err := model.CheckBranch(name, zone); err != nil {
		return err
	}
	name, zone = strings.TrimSpace(name), strings.TrimSpace(zone)
	defer s.cal.stale()
	return s.write(ctx, func(t *txn) error {
		if err := t.Exec("UPDATE branch SET name = ?, time_zone = ? WHERE id = ?", name, zone, s.branchID).Error; err != nil {
			return err
		}
		t.emit(pendingEvent{kind: model.EvConfig, note: "branch"})
		return nil
	})
}
