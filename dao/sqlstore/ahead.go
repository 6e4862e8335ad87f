package sqlstore

import (
	"slices"
	"strings"

	"gorm.io/gorm"

	"jiaohao/model"
)

// aheadRead is how many of the tickets ahead are read one by one, for
// their services in order; past it they are only counted (up to
// MaxAhead), the count costing a take about a third of reading each row.
const aheadRead = 250

// aheadRow is one ticket ahead: its service and its ServingKey, by which
// the services' heads are merged into one serving order.
type aheadRow struct {
	service int64
	key     []int64
}

// aheadOf reads the services of the first aheadRead waiting tickets served
// before t among services, in serving order, and counts them all up to
// MaxAhead. Each service is walked on its own, on ix_ticket_wait (its
// tickets in serving order, behind branch, status, day and service), from
// its head to t, where the row comparison ends the walk: so a take reads
// at most aheadRead entries (and counts at most MaxAhead) per service it
// shares windows with, however long the queues of the other services are.
// A walk of one index over all the services would step over every ticket
// of the others before t. The heads are merged here in serving order.
func (t *txn) aheadOf(row ticketRow, services []int64) ([]int64, int, error) {
	walks := make([]aheadWalk, 0, len(services))
	for _, id := range services {
		w, err := t.walkAhead(row, id, 0)
		if err != nil {
			return nil, 0, err
		}
		walks = append(walks, w)
	}
	ahead, total := mergeWalks(walks)
	return ahead, total, nil
}

// aheadWalk is one service's tickets ahead of a ticket: the first
// aheadRead in serving order, how many there are up to MaxAhead, and the
// branch version the statement that read them saw (0: it found none, and
// so no version). missed: see walkAhead.
type aheadWalk struct {
	head    []aheadRow
	count   int
	version int64
	missed  bool
}

// mergeWalks is the services of the first aheadRead tickets of walks in
// serving order, and how many tickets they hold in all up to MaxAhead.
func mergeWalks(walks []aheadWalk) ([]int64, int) {
	heads := make([][]aheadRow, len(walks))
	total := 0
	for i, w := range walks {
		heads[i] = w.head
		total += w.count
	}
	return mergeAhead(heads, aheadRead), min(total, model.MaxAhead)
}

// walkAhead reads service's walk ahead of row in one statement: the head,
// the bounded count and the branch version beside them, all from the
// one committed state the statement sees (see takeReading).
//
// known > 0 is a version every commit up to which the statement sees (an
// earlier statement read it). The statement then also counts the events
// after known up to its own version: fewer, and it missed a commit that
// one it saw came after (see EventsSince), so it is read again. A walk
// still missing one after missedTries reads is returned missed: right
// for this take but for the commits under way, and not to be kept.
func (t *txn) walkAhead(row ticketRow, service, known int64) (aheadWalk, error) {
	for try := 1; ; try++ {
		w, events, err := t.readWalk(row, service, known)
		if err != nil || known == 0 || !t.s.d.statementSnapshot() || len(w.head) == 0 || events == w.version-known {
			return w, err
		}
		if try == missedTries {
			w.missed = true
			return w, nil
		}
	}
}

// missedTries bounds the reads of a walk that each missed a commit: each
// read sees every commit the one before saw, so a second miss needs new
// commits caught the same way.
const missedTries = 3

// readWalk is one read of walkAhead, with the events it counted after
// known (none counted when known is 0).
func (t *txn) readWalk(row ticketRow, service, known int64) (aheadWalk, int64, error) {
	cond, args := servedBefore(row.toModel(nil), t.s.d.rowValues())
	fields := model.ServingOrder()
	cols := "h." + strings.Join(fields, ", h.")
	count := t.Table("(?) AS c", t.aheadQuery(row, service, cond, args, "id", model.MaxAhead)).Select("count(*)")
	q := t.Table("(?) AS h", t.aheadQuery(row, service, cond, args, callOrder, aheadRead))
	version := t.Table("branch").Select("version").Where("id = ?", t.s.branchID)
	checked := known > 0 && t.s.d.statementSnapshot()
	switch {
	case !t.s.d.statementSnapshot():
		// No reading is kept, and the version row would only be one
		// more lock to wait for behind a committing write.
		q = q.Select(cols+", (?) AS n, 0 AS v", count)
	case checked:
		events := t.Table("queue_event").Select("count(*)").
			Where("branch_id = ? AND version > ? AND version <= (?)", t.s.branchID, known, version)
		q = q.Select(cols+", (?) AS n, (?) AS v, (?) AS e", count, version, events)
	default:
		q = q.Select(cols+", (?) AS n, (?) AS v", count, version)
	}
	rows, err := q.Rows()
	if err != nil {
		return aheadWalk{}, 0, err
	}
	defer rows.Close()
	// Scanned by hand: the ORM's reflection per row was most of the cost.
	n := len(fields)
	w := aheadWalk{}
	var events int64
	keys := make([]int64, 0, 64*n)
	dest := []any{&w.count, &w.version}
	if checked {
		dest = append(dest, &events)
	}
	dest = append(make([]any, n, n+len(dest)), dest...)
	for rows.Next() {
		keys = append(keys, make([]int64, n)...)
		k := keys[len(keys)-n:]
		for i := range n {
			dest[i] = &k[i]
		}
		if err := rows.Scan(dest...); err != nil {
			return aheadWalk{}, 0, err
		}
		w.head = append(w.head, aheadRow{service: service})
	}
	if err := rows.Err(); err != nil {
		return aheadWalk{}, 0, err
	}
	// The keys' backing array stopped moving: hand out the slices now.
	for i := range w.head {
		w.head[i].key = keys[i*n : (i+1)*n : (i+1)*n]
	}
	// The derived table's order is the engine's to keep or not.
	slices.SortFunc(w.head, func(a, b aheadRow) int { return slices.Compare(a.key, b.key) })
	return w, events, nil
}

// aheadQuery is the walk of service's waiting tickets served before row.
// Where the dialect says so the row comparison starts with service_id,
// the same bound for one service, so that only ix_ticket_wait, where the
// five columns follow each other, can end its walk with it: PostgreSQL
// estimates a row comparison from its first column alone, finds no lane
// below the ticket's, and would otherwise think the walk of ix_ticket_call
// as short and take it.
func (t *txn) aheadQuery(row ticketRow, service int64, cond string, args []any, fields string, limit int) *gorm.DB {
	if t.s.d.rowValues() && t.s.d.serviceInBound() {
		cond = "(service_id, " + strings.TrimPrefix(cond, "(")
		cond = strings.Replace(cond, "< (", "< (?, ", 1)
		args = append([]any{service}, args...)
	}
	return t.Model(&ticketRow{}).Select(fields).
		Where("branch_id = ? AND status = 1 AND business_date = ? AND service_id = ?", t.s.branchID, row.BusinessDate, service).
		Where(cond, args...).Order(callOrder).Limit(limit)
}

// mergeAhead is the services of the first limit rows of heads, each in
// serving order, merged into serving order: ServingOrder is ascending in
// every field, so comparing the keys in turn is model.ServedBefore.
func mergeAhead(heads [][]aheadRow, limit int) []int64 {
	out := make([]int64, 0, min(limit, 64))
	at := make([]int, len(heads))
	for len(out) < limit {
		best := -1
		for i, h := range heads {
			if at[i] < len(h) && (best < 0 || slices.Compare(h[at[i]].key, heads[best][at[best]].key) < 0) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		out = append(out, heads[best][at[best]].service)
		at[best]++
	}
	return out
}
