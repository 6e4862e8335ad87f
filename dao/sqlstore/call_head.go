package sqlstore

import "slices"

// On PostgreSQL a call's first round trip carries its BEGIN, the window's
// row and, in the same batch, the head of the queue of every service the
// window serves, locked as the claim locks it (SKIP LOCKED): a call costs
// one round trip less, which on a busy server is a wait less for the
// client and the server process both.
//
// The head is read before the checks, so it is only a candidate. It is
// the claim callNext would have made when the services the call may take
// are the window's own, or fewer and the head's service is one of them:
// the first of all in serving order is then the first of those. Else (a
// clerk signed in who handles fewer services, and the head is not one of
// theirs) the call claims again for the fewer, and the window is marked
// so its next calls read no head early until a call of it is no longer
// narrowed. A ticket locked that way is skipped by the other windows only
// until this call ends; so is one locked by a call the checks refuse
// (the window paused, or still serving), which ends at once.

// earlyHead is the head read with the window row, if it was.
type earlyHead struct {
	tried, found bool
	row          ticketRow
}

// ticketRowColumns are ticketRow's columns in the order of its fields.
const ticketRowColumns = "id, branch_id, issue_service_id, business_date, seq_no, service_id, number, priority, status, lane, sort_key, " +
	"window_no, call_count, requeued, public_id, source, issued_at, called_at, serve_started_at, finished_at, " +
	"print_at, printed_at, print_kiosk_id, print_claim, estimate_s, customer_id, customer_level"

// fields are r's fields to scan ticketRowColumns into.
func (r *ticketRow) fields() []any {
	return []any{&r.ID, &r.BranchID, &r.IssueServiceID, &r.BusinessDate, &r.SeqNo, &r.ServiceID, &r.Number, &r.Priority, &r.Status, &r.Lane, &r.SortKey,
		&r.WindowNo, &r.CallCount, &r.Requeued, &r.PublicID, &r.Source, &r.IssuedAt, &r.CalledAt, &r.ServeStartedAt, &r.FinishedAt,
		&r.PrintAt, &r.PrintedAt, &r.PrintKioskID, &r.PrintClaim, &r.EstimateS, &r.CustomerID, &r.CustomerLevel}
}

// windowHeadSQL is the claim of the head among the services window_no
// serves, the list read in the statement: its plan walks ix_ticket_call
// as the claim's does, the list a filter.
var windowHeadSQL = "SELECT " + ticketRowColumns + " FROM ticket WHERE branch_id = ? AND status = 1 AND business_date = ? AND " +
	"service_id = ANY(ARRAY(SELECT service_id FROM window_service WHERE branch_id = ? AND window_no = ?)) ORDER BY " + callOrder +
	" LIMIT 1 FOR UPDATE SKIP LOCKED"

// windowAndHead reads window number, and with it the head of its queue
// when early is set and the transaction can send both at once.
func (t *txn) windowAndHead(number int, early bool) (heldWindow, earlyHead, error) {
	br, ok := t.wt.(batchReader)
	if !early || !ok {
		w, err := t.window(number)
		return w, earlyHead{}, err
	}
	var w heldWindow
	var h earlyHead
	found := false
	err := br.readAll(
		pendingRead{windowSQL, []any{t.s.branchID, number}, w.scanRow(&found)},
		pendingRead{windowHeadSQL, []any{t.s.branchID, t.date, t.s.branchID, number}, func(scan func(...any) error) error {
			h.found = true
			return scan(h.row.fields()...)
		}})
	if err != nil {
		return heldWindow{}, earlyHead{}, err
	}
	if !found {
		return heldWindow{}, earlyHead{}, noWindow(number)
	}
	h.tried = true
	return w, h, nil
}

// claims says whether h is the claim for ids, the services the call may
// take of the window's.
func (h earlyHead) claims(ids []int64) bool {
	if !h.tried {
		return false
	}
	if !h.found {
		// Nothing waits for any of w's services, so for none of ids.
		return true
	}
	return slices.Contains(ids, h.row.ServiceID)
}

func (s *GormStore) wasNarrowed(window int) bool {
	_, ok := s.narrowed.Load(window)
	return ok
}

// markNarrowed keeps whether window's call was narrowed by its clerk.
func (s *GormStore) markNarrowed(window int, narrowed bool) {
	if narrowed {
		s.narrowed.Store(window, struct{}{})
	} else if s.wasNarrowed(window) {
		s.narrowed.Delete(window)
	}
}
