package sqlstore

import (
	"context"
	"strings"
	"time"

	"jiaohao/model"
)

var _ model.HealthLog = (*GormStore)(nil)

// healthCheckRow is one business day's health check: the claim of its
// automatic run (one row per day, so two hosts or a restarted one run it
// once) and what the last run, automatic or on demand, found. The row is
// always inserted whole (ensureHealthRow), so no column needs a default.
type healthCheckRow struct {
	BranchID     int64      `gorm:"primaryKey;autoIncrement:false"`
	BusinessDate string     `gorm:"primaryKey;size:10"`
	ClaimedBy    string     `gorm:"size:300;not null"` // model.HealthHolderMax
	ClaimedAt    *time.Time `gorm:"precision:6"`
	DoneAt       *time.Time `gorm:"precision:6"` // the automatic run finished
	CheckedAt    *time.Time `gorm:"precision:6"` // the findings' time; nil until a run records them
	Host         string     `gorm:"size:300;not null"`
	Dir          string     `gorm:"size:1000;not null"`
	Taken        int        `gorm:"not null"`
	Stuck        int        `gorm:"not null"`
	PassedOver   string     `gorm:"size:200;not null"` // service codes, comma separated
	Flagged      bool       `gorm:"not null"`
}

func (healthCheckRow) TableName() string { return "health_check" }

const healthKey = "branch_id = ? AND business_date = ?"

// ensureHealthRow creates the day's row unless it exists; every PC may
// race here, the key keeps one.
func (s *GormStore) ensureHealthRow(ctx context.Context, date string) error {
	return s.wrap(s.d.insertIgnore(s.db.WithContext(ctx), "health_check", []string{"branch_id", "business_date", "claimed_by", "host", "dir",
		"taken", "stuck", "passed_over", "flagged"}, []any{s.branchID, date, "", "", "", 0, 0, "", false}))
}

// ClaimHealthCheck is one conditional UPDATE of the day's row: of PCs
// racing for it, the database lets exactly one change it.
func (s *GormStore) ClaimHealthCheck(ctx context.Context, date, holder string, lease time.Duration) (bool, error) {
	if holder == "" || len(holder) > model.HealthHolderMax {
		return false, model.Errorf(model.EInvalidInput, "健康检查须有执行者，且不超过 %d 字节 (a claim needs a holder of at most %d bytes)", model.HealthHolderMax, model.HealthHolderMax)
	}
	if err := s.ensureHealthRow(ctx, date); err != nil {
		return false, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return false, err
	}
	now = now.UTC().Truncate(time.Microsecond)
	res := s.db.WithContext(ctx).Exec("UPDATE health_check SET claimed_by = ?, claimed_at = ? WHERE "+healthKey+
		" AND done_at IS NULL AND (claimed_at IS NULL OR claimed_at < ?)", holder, now, s.branchID, date, now.Add(-lease))
	if res.Error != nil {
		return false, s.wrap(res.Error)
	}
	return res.RowsAffected == 1, nil
}

// RecordHealthCheck stores the findings; with a holder, only while it
// holds the claim, and the day's automatic run is then done. It writes one
// EvHealth event.
func (s *GormStore) RecordHealthCheck(ctx context.Context, c model.HealthCheck, holder string) error {
	if len(holder) > model.HealthHolderMax || len(c.Host) > model.HealthHolderMax {
		return model.Errorf(model.EInvalidInput, "健康检查的执行者和主机名不能超过 %d 字节 (holder and host are at most %d bytes)", model.HealthHolderMax, model.HealthHolderMax)
	}
	if err := s.ensureHealthRow(ctx, c.Date); err != nil {
		return err
	}
	at := c.At.UTC().Truncate(time.Microsecond)
	set := "checked_at = ?, host = ?, dir = ?, taken = ?, stuck = ?, passed_over = ?, flagged = ?"
	args := []any{at, c.Host, c.Dir, c.Taken, c.Stuck, strings.Join(c.PassedOver, ","), c.Flagged}
	where := healthKey
	if holder != "" {
		set += ", done_at = ?"
		args = append(args, at)
		where += " AND claimed_by = ? AND done_at IS NULL"
	}
	args = append(args, s.branchID, c.Date)
	if holder != "" {
		args = append(args, holder)
	}
	// One event tells the manager's screens to read the check again; it
	// goes the gap-free way of every other change.
	return s.write(ctx, func(t *txn) error {
		res := t.Exec("UPDATE health_check SET "+set+" WHERE "+where, args...)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return model.Errorf(model.EConflict, "%s 的健康检查已由另一台电脑接手 (another PC took over the check of %s)", c.Date, c.Date)
		}
		t.emit(pendingEvent{kind: model.EvHealth, note: c.Date})
		return nil
	})
}

// HealthChecksDone reads which of dates have their automatic run done.
func (s *GormStore) HealthChecksDone(ctx context.Context, dates []string) (map[string]bool, error) {
	done := map[string]bool{}
	if len(dates) == 0 {
		return done, nil
	}
	var got []string
	err := s.db.WithContext(ctx).Table("health_check").Where("branch_id = ? AND business_date IN ? AND done_at IS NOT NULL", s.branchID, dates).
		Pluck("business_date", &got).Error
	if err != nil {
		return nil, s.wrap(err)
	}
	for _, d := range got {
		done[d] = true
	}
	return done, nil
}

// LastHealthCheck prefers a day whose automatic run is done, then a day
// with tickets: an on-demand check of another day must not hide the
// verdict of the last closed day, and a closed Sunday's empty check must
// not hide Saturday's flag on Monday morning.
func (s *GormStore) LastHealthCheck(ctx context.Context) (model.HealthCheck, error) {
	for _, extra := range []string{" AND done_at IS NOT NULL AND taken > 0", " AND done_at IS NOT NULL", " AND taken > 0", ""} {
		var rows []healthCheckRow
		err := s.db.WithContext(ctx).Where("branch_id = ? AND checked_at IS NOT NULL"+extra, s.branchID).
			Order("business_date DESC").Limit(1).Find(&rows).Error
		if err != nil {
			return model.HealthCheck{}, s.wrap(err)
		}
		if len(rows) == 1 {
			return rows[0].toHealthCheck(), nil
		}
	}
	return model.HealthCheck{}, model.Errorf(model.ENotFound, "尚未做过健康检查 (no health check yet)")
}

func (r healthCheckRow) toHealthCheck() model.HealthCheck {
	c := model.HealthCheck{Date: r.BusinessDate, Host: r.Host, Dir: r.Dir, Taken: r.Taken, Stuck: r.Stuck, Flagged: r.Flagged}
	if r.CheckedAt != nil {
		c.At = r.CheckedAt.UTC()
	}
	if r.PassedOver != "" {
		c.PassedOver = strings.Split(r.PassedOver, ",")
	}
	if r.Dir != "" {
		c.Files = model.HealthFiles(r.BusinessDate)
	}
	return c
}

// ClaimHealthRecheck takes the one recheck of a day whose automatic run is
// done but ran before the day ended (end): of PCs racing for it one wins,
// and the claim moves checked_at to now, so the day is not taken again.
func (s *GormStore) ClaimHealthRecheck(ctx context.Context, date string, end time.Time) (bool, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return false, err
	}
	now, end = now.UTC().Truncate(time.Microsecond), end.UTC().Truncate(time.Microsecond)
	if now.Before(end) {
		return false, nil
	}
	res := s.db.WithContext(ctx).Exec("UPDATE health_check SET checked_at = ? WHERE "+healthKey+
		" AND done_at IS NOT NULL AND checked_at < ?", now, s.branchID, date, end)
	if res.Error != nil {
		return false, s.wrap(res.Error)
	}
	return res.RowsAffected == 1, nil
}
