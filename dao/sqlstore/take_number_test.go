package sqlstore_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"gorm.io/gorm"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
)

// seqRow is the day's sequence row of service A and the sort key of its
// last ticket.
type seqRow struct {
	LastNo, LastKey, KeyNo, TicketKey int64
}

// setTicketKey places number seq of service A at key, as a PC whose clock
// ran elsewhere would have issued it.
func setTicketKey(t *testing.T, s *sqlstore.GormStore, seq, key int64) {
	t.Helper()
	okAny(t, s.DB().Exec("UPDATE ticket SET sort_key = ? WHERE seq_no = ? AND issue_service_id = (SELECT id FROM service WHERE code = 'A')",
		key, seq).Error)
}

func readSeq(t *testing.T, s *sqlstore.GormStore) seqRow {
	t.Helper()
	var r []seqRow
	err := s.DB().Raw(`SELECT q.last_no, q.last_key, q.key_no, k.sort_key AS ticket_key FROM ticket_sequence q
		JOIN service v ON v.id = q.service_id AND v.code = 'A'
		JOIN ticket k ON k.branch_id = q.branch_id AND k.issue_service_id = q.service_id
			AND k.business_date = q.business_date AND k.seq_no = q.last_no`).Scan(&r).Error
	okAny(t, err)
	if len(r) != 1 {
		t.Fatalf("%d sequence rows of A with their last ticket, want 1", len(r))
	}
	return r[0]
}

// Where the engine returns several columns from an UPDATE, the sequence
// row carries the last number's sort key, so a take reads no ticket while
// it holds the row the other kiosks of the service wait for. A key ahead
// of the clock (the previous number's host clock ran fast) is still
// followed, and a row from before keys were kept learns its key from the
// tickets once. Elsewhere the key stays 0 and the ticket is read.
func TestTakeKeepsIssueKeyOnSequenceRow(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		keyed := sqlstore.KeepsIssueKey(s)
		var ticketReads atomic.Int64
		count := func(tx *gorm.DB) {
			if strings.HasPrefix(tx.Statement.SQL.String(), "SELECT sort_key FROM ticket") {
				ticketReads.Add(1)
			}
		}
		okAny(t, s.DB().Callback().Raw().After("gorm:raw").Register("test:prevkey", count))
		okAny(t, s.DB().Callback().Row().After("gorm:row").Register("test:prevkey", count))

		// The day's first number: nothing before it to read.
		before := ticketReads.Load()
		first := take(t, s, "A", 0)
		r := readSeq(t, s)
		reads := ticketReads.Load() - before
		switch {
		case keyed && (r.LastKey != r.TicketKey || r.KeyNo != r.LastNo || r.LastNo != int64(first.SeqNo) || reads != 0):
			t.Fatalf("after the day's first take the row holds %+v, %d reads of a ticket; want the ticket's key and none", r, reads)
		case !keyed && (r.LastKey != 0 || reads != 1):
			t.Fatalf("an engine that reads the ticket: key %d on the row, %d reads; want 0 and 1", r.LastKey, reads)
		}
		before = ticketReads.Load()
		for range 3 {
			take(t, s, "A", 0)
		}
		reads = ticketReads.Load() - before
		if keyed && reads != 0 {
			t.Fatalf("3 takes read the previous ticket %d times, want none", reads)
		}
		if !keyed && reads != 3 {
			t.Fatalf("3 takes read the previous ticket %d times, want 3", reads)
		}

		// The previous number sorts far ahead of this host's clock.
		r = readSeq(t, s)
		ahead := r.TicketKey + 3_600_000_000_000
		setTicketKey(t, s, r.LastNo, ahead)
		if keyed {
			okAny(t, s.DB().Exec("UPDATE ticket_sequence SET last_key = ?", ahead).Error)
		}
		next := take(t, s, "A", 0)
		r = readSeq(t, s)
		if r.LastNo != int64(next.SeqNo) || r.TicketKey != ahead+1000 {
			t.Fatalf("after a number keyed %d the next has key %d, want %d", ahead, r.TicketKey, ahead+1000)
		}

		// A row from before keys were kept.
		okAny(t, s.DB().Exec("UPDATE ticket_sequence SET last_key = 0, key_no = 0").Error)
		before = ticketReads.Load()
		take(t, s, "A", 0)
		r = readSeq(t, s)
		if r.TicketKey != ahead+2000 {
			t.Fatalf("after a row without its key the next number has key %d, want %d", r.TicketKey, ahead+2000)
		}
		if reads := ticketReads.Load() - before; reads != 1 {
			t.Fatalf("a row without its key: the take read the previous ticket %d times, want 1", reads)
		}
		if keyed && r.LastKey != r.TicketKey {
			t.Fatalf("the row learnt key %d, want the ticket's %d", r.LastKey, r.TicketKey)
		}
		take(t, s, "A", 0)
		if r = readSeq(t, s); r.TicketKey != ahead+3000 || (keyed && (r.LastKey != r.TicketKey || r.KeyNo != r.LastNo)) {
			t.Fatalf("the take after it: %+v, want ticket key %d kept on the row", r, ahead+3000)
		}

		// A PC still on the build before took the last number: it moved
		// last_no alone, and its ticket sorts later than the row's key.
		later := ahead + 7_200_000_000_000
		setTicketKey(t, s, r.LastNo, later)
		okAny(t, s.DB().Exec("UPDATE ticket_sequence SET key_no = key_no - 1").Error)
		before = ticketReads.Load()
		take(t, s, "A", 0)
		if r = readSeq(t, s); r.TicketKey != later+1000 {
			t.Fatalf("after a number the row's key did not belong to, the next has key %d, want %d", r.TicketKey, later+1000)
		}
		if reads := ticketReads.Load() - before; reads != 1 {
			t.Fatalf("a row whose key is not the last number's: the take read the previous ticket %d times, want 1", reads)
		}
	})
}
