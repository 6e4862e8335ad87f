package sqlstore

import "gorm.io/gorm"

// sortKeyScale leaves room between two tickets issued a microsecond apart,
// so a requeued ticket can be placed between them.
const sortKeyScale = 1000

// seqKeyer is a dialect whose UPDATE returns several columns. Its sequence
// rows carry the sort key of the last number as well (last_key, and
// key_no, the number it belongs to), moved by the statement that takes
// the row: a take then reads no ticket while it holds the row every other
// kiosk of the service is waiting for. MariaDB, and SQL Server for now,
// read the key from the previous ticket (issueKey) and leave the two at 0.
type seqKeyer interface {
	nextSeqKey(db *gorm.DB, now int64, where string, args ...any) (no, key int64, ok bool, err error)
}

func (postgresDialect) nextSeqKey(db *gorm.DB, now int64, where string, args ...any) (int64, int64, bool, error) {
	return incrementKeyReturning(db, now, where, args...)
}

func (sqliteDialect) nextSeqKey(db *gorm.DB, now int64, where string, args ...any) (int64, int64, bool, error) {
	return incrementKeyReturning(db, now, where, args...)
}

// incrementKeyReturning moves the number and its key in one statement
// (the right-hand sides read the row as it was). A key that is not the
// last number's, because the row is from before keys were kept or a PC
// still on such a build moved the number alone, comes back as 0: the
// caller then reads it from the tickets (nextNumber).
func incrementKeyReturning(db *gorm.DB, now int64, where string, args ...any) (int64, int64, bool, error) {
	var out []struct{ LastNo, LastKey int64 }
	err := db.Raw("UPDATE ticket_sequence SET last_no = last_no + 1, key_no = last_no + 1, "+
		"last_key = CASE WHEN last_key = 0 OR key_no <> last_no THEN 0 "+
		"WHEN last_key >= ? THEN last_key + ? ELSE ? END WHERE "+where+" RETURNING last_no, last_key",
		append([]any{now, sortKeyScale, now}, args...)...).Scan(&out).Error
	if err != nil || len(out) == 0 {
		return 0, 0, false, err
	}
	return out[0].LastNo, out[0].LastKey, true, nil
}

// nextNumber increments the day's sequence row of svc and returns the new
// number with its place in issue order (its sort key). The row is created
// at start_no - 1 first when the day has none yet (no reset job, no race
// at midnight).
func (t *txn) nextNumber(svc serviceRow) (int, int64, error) {
	where := "branch_id = ? AND service_id = ? AND business_date = ?"
	args := []any{t.s.branchID, svc.ID, t.date}
	keyer, keyed := t.s.d.(seqKeyer)
	inc := func() (int64, int64, bool, error) {
		if keyed {
			return keyer.nextSeqKey(t.DB, t.now.UnixMicro()*sortKeyScale, where, args...)
		}
		n, ok, err := t.s.d.increment(t.DB, "ticket_sequence", "last_no", where, args...)
		return n, 0, ok, err
	}
	n, key, ok, err := inc()
	if err == nil && !ok {
		start := svc.StartNo
		if start < 1 {
			start = 1
		}
		cols := []string{"branch_id", "service_id", "business_date", "last_no"}
		vals := []any{t.s.branchID, svc.ID, t.date, start - 1}
		if keyed {
			// Key 1 for number start - 1: before any clock, as the day
			// has no number yet.
			cols, vals = append(cols, "last_key", "key_no"), append(vals, 1, start-1)
		}
		if err = t.s.d.insertIgnore(t.DB, "ticket_sequence", cols, vals); err == nil {
			if n, key, ok, err = inc(); err == nil && !ok {
				err = errConflict
			}
		}
	}
	if err != nil {
		return 0, 0, err
	}
	if key != 0 {
		return int(n), key, nil
	}
	if key, err = t.issueKey(svc.ID, int(n)); err != nil || !keyed {
		return int(n), key, err
	}
	// The row's key was not the last number's: it is from now on (the
	// increment set key_no).
	err = t.Exec("UPDATE ticket_sequence SET last_key = ? WHERE "+where, append([]any{key}, args...)...).Error
	return int(n), key, err
}

// issueKey is the new number's place in issue order: its issue time, but
// never before the service's previous number. The clock is read before the
// sequence row is locked, so with several kiosks at once the time alone
// would not follow the numbers (A004 could be called before A002).
func (t *txn) issueKey(serviceID int64, seq int) (int64, error) {
	key := t.now.UnixMicro() * sortKeyScale
	var prev []int64
	err := t.Raw("SELECT sort_key FROM ticket WHERE branch_id = ? AND issue_service_id = ? AND business_date = ? AND seq_no = ?",
		t.s.branchID, serviceID, t.date, seq-1).Scan(&prev).Error
	if err != nil {
		return 0, err
	}
	if len(prev) > 0 && prev[0] >= key {
		key = prev[0] + sortKeyScale
	}
	return key, nil
}
