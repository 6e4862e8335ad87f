package sqlstore

import (
	"context"
	"strconv"
	"strings"

	"gorm.io/gorm"

	"jiaohao/model"
)

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// read gives read-only methods the same reference data as writes.
func (s *GormStore) read(ctx context.Context) *txn {
	return &txn{DB: s.db.WithContext(ctx), s: s, ctx: ctx}
}

// Ticket returns one ticket by id.
func (s *GormStore) Ticket(ctx context.Context, id int64) (model.Ticket, error) {
	r := s.read(ctx)
	row, err := r.ticket(id)
	if err != nil {
		return model.Ticket{}, s.wrap(err)
	}
	c, err := r.codes(row.ServiceID, row.IssueServiceID)
	if err != nil {
		return model.Ticket{}, s.wrap(err)
	}
	return row.toModel(c), nil
}

// TicketByPublicID finds the ticket behind a customer page.
func (s *GormStore) TicketByPublicID(ctx context.Context, publicID string) (model.Ticket, error) {
	if len(publicID) != 32 {
		return model.Ticket{}, model.Errorf(model.ENotFound, "没有这个号码 (unknown ticket)")
	}
	var ids []int64
	if err := s.db.WithContext(ctx).Raw("SELECT id FROM ticket WHERE branch_id = ? AND public_id = ?", s.branchID, publicID).Scan(&ids).Error; err != nil {
		return model.Ticket{}, s.wrap(err)
	}
	if len(ids) == 0 {
		return model.Ticket{}, model.Errorf(model.ENotFound, "没有这个号码 (unknown ticket)")
	}
	return s.Ticket(ctx, ids[0])
}

// TicketByNumber finds the newest ticket with the number a customer holds,
// by its issue service and sequence: the numbering's unique index, so a
// lookup stays one index probe however full the table is.
func (s *GormStore) TicketByNumber(ctx context.Context, number string) (model.Ticket, error) {
	notFound := model.Errorf(model.ENotFound, "没有这个号码 (no such number)")
	code, seq, ok := model.ParseNumber(number)
	if !ok {
		return model.Ticket{}, notFound
	}
	r := s.read(ctx)
	svc, err := r.serviceByCode(code)
	if model.IsCode(err, model.ENotFound) {
		return model.Ticket{}, notFound
	} else if err != nil {
		return model.Ticket{}, s.wrap(err)
	}
	var rows []ticketRow
	if err := r.Where("branch_id = ? AND issue_service_id = ? AND seq_no = ?", s.branchID, svc.ID, seq).
		Order("business_date DESC").Limit(1).Find(&rows).Error; err != nil {
		return model.Ticket{}, s.wrap(err)
	}
	if len(rows) == 0 {
		return model.Ticket{}, notFound
	}
	c, err := r.codes(rows[0].ServiceID, rows[0].IssueServiceID)
	if err != nil {
		return model.Ticket{}, s.wrap(err)
	}
	return rows[0].toModel(c), nil
}

// Position is where a waiting ticket stands: the tickets the windows
// will call before it and when one reaches it (model.Estimate), from
// bounded reads, so it costs the same with 20,000 waiting as with 20.
// TakenPosition is where ticket id stood when this store took it, as its
// take worked it out (people ahead, estimated wait): the answer to the
// take itself, which needs no second walk of the queue. ok is false when
// the take is not one of this store's last ones.
func (s *GormStore) TakenPosition(id int64) (model.Position, bool) {
	t, ok := s.taken.find(id)
	return t.pos, ok
}

func (s *GormStore) Position(ctx context.Context, id int64) (model.Position, error) {
	r := s.read(ctx)
	row, err := r.ticket(id)
	if err != nil {
		return model.Position{}, s.wrap(err)
	}
	if model.Status(row.Status) != model.Waiting {
		return model.Position{}, nil
	}
	if pos, ok := s.taken.recall(id, func() (int64, error) { return s.version(r.DB) }); ok {
		return pos, nil
	}
	now, err := s.Now(ctx)
	if err != nil {
		return model.Position{}, s.wrap(err)
	}
	pos, err := r.position(row, now)
	return pos, s.wrap(err)
}

// servedBefore is model.ServedBefore(row, t) as a condition on the row:
// with rowValues "(lane, priority, …) < (?, ?, …)", which ends the walk of
// the serving-order index at t instead of testing every entry (on SQLite
// this is most of the cost of 999 people ahead); else the nested shape
// "lane < ? OR (lane = ? AND (priority < ? OR (…)))".
func servedBefore(t model.Ticket, rowValues bool) (string, []any) {
	fields, key := model.ServingOrder(), model.ServingKey(t)
	if rowValues {
		args := make([]any, len(key))
		for i, k := range key {
			args[i] = k
		}
		return "(" + callOrder + ") < (?" + strings.Repeat(", ?", len(key)-1) + ")", args
	}
	last := len(fields) - 1
	cond, args := fields[last]+" < ?", []any{key[last]}
	for i := last - 1; i >= 0; i-- {
		cond = fields[i] + " < ? OR (" + fields[i] + " = ? AND (" + cond + "))"
		args = append([]any{key[i], key[i]}, args...)
	}
	return cond, args
}

// EventsSince returns events with version > since, oldest first, with no
// version missing that a later read would find: what a watcher has read
// past, it never reads.
//
// Versions commit in order, but one statement does not always see one
// committed state. On MariaDB the read view of a statement lists the
// transactions still running while they commit, so it can miss the
// commit of version n and see n+1, which waited for n's lock and committed
// after it. Any statement begun after this one has ended sees n. So a
// read with a hole is read again up to the last version it saw; a hole
// still there then is one no read will fill (a row deleted by hand:
// nothing here deletes events), and holding the rows after it back would
// stop every watcher for good.
func (s *GormStore) EventsSince(ctx context.Context, since int64, limit int) ([]model.Event, error) {
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	rows, err := s.eventsAfter(ctx, since, 0, limit)
	if err == nil && hasHole(rows, since) {
		rows, err = s.eventsAfter(ctx, since, rows[len(rows)-1].Version, limit)
	}
	if err != nil {
		return nil, s.wrap(err)
	}
	out := make([]model.Event, len(rows))
	for i, r := range rows {
		out[i] = r.toModel()
	}
	return out, nil
}

// eventsAfter reads up to limit events with since < version <= upTo (no
// upper bound when upTo is 0), oldest first.
func (s *GormStore) eventsAfter(ctx context.Context, since, upTo int64, limit int) ([]eventRow, error) {
	q := s.db.WithContext(ctx).Where("branch_id = ? AND version > ?", s.branchID, since)
	if upTo > 0 {
		q = q.Where("version <= ?", upTo)
	}
	var rows []eventRow
	err := q.Order("version").Limit(limit).Find(&rows).Error
	return rows, err
}

// hasHole says rows, read after since, skip a version.
func hasHole(rows []eventRow, since int64) bool {
	for _, r := range rows {
		if r.Version != since+1 {
			return true
		}
		since = r.Version
	}
	return false
}

func (s *GormStore) version(db *gorm.DB) (int64, error) {
	var v int64
	err := db.Raw("SELECT version FROM branch WHERE id = ?", s.branchID).Scan(&v).Error
	return v, err
}
