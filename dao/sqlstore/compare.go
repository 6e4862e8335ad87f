package sqlstore

import (
	"context"

	"jiaohao/model"
)

// What `jiaohao bench --compare` measures call-next against, on the same
// database and tables, so anyone can check the design's claim on their own
// server in one run. Neither is used by any role.

// CallNextSerial is call-next in seed 002's shape: one lock for the whole
// branch taken first (an advisory lock on PostgreSQL, the branch row on
// MariaDB and SQL Server, the single writer on SQLite), then the pick with
// a plain row lock, the claim, the version and the event. It changes the
// queue exactly as CallNext does.
func (s *GormStore) CallNextSerial(ctx context.Context, window int) (model.Ticket, error) {
	return s.callNext(ctx, window, "", true)
}

// ceilingDate keys the counter row BumpCeiling increments: a sequence row
// no business day can have, of the same shape as the branch version row.
const ceilingDate = "9999-12-31"

// BumpCeiling is one transaction that only increments one hot row and
// commits: the most calls per second any design that bumps a gap-free
// branch version could reach. It leaves the branch version and the event
// log alone, so nobody watching the branch sees a gap.
func (s *GormStore) BumpCeiling(ctx context.Context) error {
	return s.write(ctx, func(t *txn) error {
		where := "branch_id = ? AND service_id = 0 AND business_date = ?"
		_, ok, err := t.s.d.increment(t.DB, "ticket_sequence", "last_no", where, t.s.branchID, ceilingDate)
		if err != nil || ok {
			return err
		}
		if err := t.s.d.insertIgnore(t.DB, "ticket_sequence", []string{"branch_id", "service_id", "business_date", "last_no"},
			[]any{t.s.branchID, 0, ceilingDate, 1}); err != nil {
			return err
		}
		return nil
	})
}

// LastTicketID is the largest ticket id of the branch so far: a bench takes its tickets
// after it and audits the ids above it.
func (s *GormStore) LastTicketID(ctx context.Context) (int64, error) {
	var id int64
	err := s.db.WithContext(ctx).Raw("SELECT COALESCE(MAX(id), 0) FROM ticket WHERE branch_id = ?", s.branchID).Scan(&id).Error
	return id, s.wrap(err)
}

// CallAudit counts, from the event log and the ticket table, what happened
// to the tickets with first < id <= last: how many call events, how many
// of them called a ticket a second time, and how many are still waiting.
func (s *GormStore) CallAudit(ctx context.Context, first, last int64) (calls, duplicates, waiting int64, err error) {
	db := s.db.WithContext(ctx)
	if err = db.Raw("SELECT COUNT(*) FROM queue_event e WHERE e.branch_id = ? AND e.kind = ? AND e.ticket_id > ? AND e.ticket_id <= ?",
		s.branchID, model.EvCall, first, last).Scan(&calls).Error; err != nil {
		return 0, 0, 0, s.wrap(err)
	}
	if err = db.Raw("SELECT COALESCE(SUM(n - 1), 0) FROM (SELECT e.ticket_id, COUNT(*) AS n FROM queue_event e WHERE e.branch_id = ? AND e.kind = ? AND e.ticket_id > ? AND e.ticket_id <= ? GROUP BY e.ticket_id HAVING COUNT(*) > 1) AS d",
		s.branchID, model.EvCall, first, last).Scan(&duplicates).Error; err != nil {
		return 0, 0, 0, s.wrap(err)
	}
	if err = db.Raw("SELECT COUNT(*) FROM ticket WHERE branch_id = ? AND id > ? AND id <= ? AND status = ?", s.branchID, first, last, int(model.Waiting)).Scan(&waiting).Error; err != nil {
		return 0, 0, 0, s.wrap(err)
	}
	return calls, duplicates, waiting, nil
}

// Version is the branch's version now: a bench marks the stretch of the
// log it measures with it.
func (s *GormStore) Version(ctx context.Context) (int64, error) {
	v, err := s.version(s.db.WithContext(ctx))
	return v, s.wrap(err)
}

// CallsBetween counts the branch's call events with after < version <= upTo.
func (s *GormStore) CallsBetween(ctx context.Context, after, upTo int64) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Raw("SELECT COUNT(*) FROM queue_event WHERE branch_id = ? AND kind = ? AND version > ? AND version <= ?",
		s.branchID, model.EvCall, after, upTo).Scan(&n).Error
	return n, s.wrap(err)
}
