package dao

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
