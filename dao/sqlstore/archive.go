package sqlstore

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"gorm.io/gorm/clause"

	"jiaohao/model"
)

// DefaultArchiveBatch is how many tickets one archive transaction moves:
// small enough to keep locks short on a busy server, large enough to move
// a year in minutes.
const DefaultArchiveBatch = 1000

// Archive moves the tickets of every business day before the date before
// (YYYY-MM-DD, branch time) from ticket to ticket_history, batch tickets
// per transaction. Each batch copies then deletes in one transaction, and
// the copy skips ids already archived, so a run that stops half way is
// finished by running it again, and a second run moves nothing. Only
// finished days can be archived: before may be today at the latest.
func (s *GormStore) Archive(ctx context.Context, before string, batch int) (int, error) {
	if batch <= 0 {
		batch = DefaultArchiveBatch
	}
	cal := s.calendar(ctx)
	start, _, err := cal.Bounds(before)
	if err != nil {
		return 0, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return 0, err
	}
	today := cal.Date(now)
	if before > today {
		return 0, model.Errorf(model.EInvalidInput, "不能归档 %s 之前的数据：只有今天（%s）之前的日子已经结束 (day not finished)", before, today)
	}
	cutoff := start.UTC()
	moved := 0
	for {
		n, err := s.archiveBatch(ctx, cutoff, batch)
		moved += n
		if err != nil {
			return moved, s.wrap(fmt.Errorf("archive tickets before %s: %w", before, err))
		}
		if n < batch {
			// Best effort: the engine's background analysis gets there
			// too, only later; the tickets are archived either way.
			_ = s.RefreshStatistics(ctx)
			return moved, nil
		}
	}
}

// maxStatementParams is the most parameters one statement binds: SQL
// Server refuses more than 2,100, and the others allow at least as many.
const maxStatementParams = 2000

// historyInsertRows is how many archived tickets one INSERT copies, from
// the row's column count, so a column added later cannot push the batch
// over maxStatementParams.
var historyInsertRows = maxStatementParams / historyColumns()

// historyColumns is how many columns a ticket_history row binds: every
// field of historyRow is one.
func historyColumns() int { return reflect.TypeFor[historyRow]().NumField() }

// archiveBatch moves up to batch of the oldest tickets before cutoff in one
// transaction. A window still holding one of them (a ticket left called
// or serving on an old day) lets go of it, with a window event, so no
// terminal shows a ticket that is no longer in the queue.
func (s *GormStore) archiveBatch(ctx context.Context, cutoff time.Time, batch int) (int, error) {
	n := 0
	err := s.write(ctx, func(t *txn) error {
		n = 0 // the transaction may be retried
		q := t.Where("branch_id = ? AND issued_at < ?", s.branchID, cutoff).Order("issued_at, id").Limit(batch)
		// A clerk finishing a forgotten ticket must not be lost between
		// the copy and the delete.
		q = s.d.lockRead(q)
		var rows []ticketRow
		if err := q.Find(&rows).Error; err != nil || len(rows) == 0 {
			return err
		}
		hist := make([]historyRow, len(rows))
		ids := make([]int64, len(rows))
		for i, r := range rows {
			hist[i] = historyRow(r)
			ids[i] = r.ID
		}
		if err := t.Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(hist, historyInsertRows).Error; err != nil {
			return err
		}
		if err := t.Where("branch_id = ? AND id IN ?", s.branchID, ids).Delete(&ticketRow{}).Error; err != nil {
			return err
		}
		n = len(rows)
		return t.releaseArchived(ids)
	})
	return n, err
}

func (t *txn) releaseArchived(ids []int64) error {
	var windows []int
	if err := t.Raw("SELECT number FROM service_window WHERE branch_id = ? AND current_ticket_id IN ?", t.s.branchID, ids).
		Scan(&windows).Error; err != nil {
		return err
	}
	for _, w := range windows {
		if err := t.Exec("UPDATE service_window SET current_ticket_id = NULL WHERE branch_id = ? AND number = ?", t.s.branchID, w).Error; err != nil {
			return err
		}
		var out model.Window
		if err := t.windowEvent(w, &out); err != nil {
			return err
		}
	}
	return nil
}

// CountIssued counts the branch's tickets issued in [from, to), live and
// archived.
func (s *GormStore) CountIssued(ctx context.Context, from, to time.Time) (int64, error) {
	var total int64
	for _, table := range []string{"ticket", "ticket_history"} {
		var n int64
		err := s.db.WithContext(ctx).Table(table).
			Where("branch_id = ? AND issued_at >= ? AND issued_at < ?", s.branchID, from.UTC(), to.UTC()).Count(&n).Error
		if err != nil {
			return 0, s.wrap(fmt.Errorf("count tickets: %w", err))
		}
		total += n
	}
	return total, nil
}
