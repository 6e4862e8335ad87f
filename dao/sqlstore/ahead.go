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
	cond, args := servedBefore(row.toModel(nil), t.s.d.rowValues())
	heads := make([][]aheadRow, 0, len(services))
	total := 0
	for _, id := range services {
		head, err := t.aheadHead(row, id, cond, args)
		if err != nil {
			return nil, 0, err
		}
		heads = append(heads, head)
		total += len(head)
	}
	out := mergeAhead(heads, aheadRead)
	// Only a service whose head filled up has more: counted, bounded.
	for i, head := range heads {
		if len(head) < aheadRead || total >= model.MaxAhead {
			continue
		}
		var n int64
		err := t.Table("(?) AS ahead", t.aheadQuery(row, services[i], cond, args, "id", model.MaxAhead)).Count(&n).Error
		if err != nil {
			return nil, 0, err
		}
		total += int(n) - len(head)
	}
	return out, min(total, model.MaxAhead), nil
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

// aheadHead reads the first aheadRead tickets of service ahead of row, in
// serving order, with their keys.
func (t *txn) aheadHead(row ticketRow, service int64, cond string, args []any) ([]aheadRow, error) {
	rows, err := t.aheadQuery(row, service, cond, args, callOrder, aheadRead).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	// Scanned by hand: the ORM's reflection per row was most of the cost.
	n := len(model.ServingOrder())
	var out []aheadRow
	keys := make([]int64, 0, 64*n)
	dest := make([]any, n)
	for rows.Next() {
		keys = append(keys, make([]int64, n)...)
		k := keys[len(keys)-n:]
		for i := range dest {
			dest[i] = &k[i]
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		out = append(out, aheadRow{service: service})
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// The keys' backing array stopped moving: hand out the slices now.
	for i := range out {
		out[i].key = keys[i*n : (i+1)*n : (i+1)*n]
	}
	return out, nil
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
