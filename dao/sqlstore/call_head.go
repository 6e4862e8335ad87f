package sqlstore

import (
	"slices"

	"jiaohao/model"
)

// On PostgreSQL a call's first round trip carries its BEGIN, the window's
// row and, in the same batch, the head of the queue of every service the
// window serves, locked as the claim locks it (SKIP LOCKED): a call costs
// one round trip less, which on a busy server is a wait less for the
// client and the server process both.
//
// The head is read before the checks, and a ticket it locks is skipped by
// every other window until the call ends: one locked by a call that then
// does not take it would be called after later ones, or a window would
// find the queue empty while it waits. So the statement locks a head only
// when the call will take it: the window open and not serving a customer
// today (model.Desk.CanCall) and no clerk signed in with a list of the
// services they handle (model.ClerkMayHandle). That is a precondition
// for reading early, not the decision: the model still checks what came
// back, and a call the statement turned away claims as before, one round
// trip later. The window row, the head and a clerk's list are separate
// statements, each reading what is committed when it starts: a change
// committed between them (a listed clerk signing out, a service added to
// the window, a clerk given a list, all in the same millisecond) can
// still leave a head held for the rest of that one call.

// earlyHead is the head read with the window row, if one was.
type earlyHead struct {
	found bool
	row   ticketRow
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

// windowHeadSQL is the claim of the head among the services the window
// serves, the list read in the statement (its plan walks ix_ticket_call
// as the claim's does, the list a filter), when the window may take it.
var windowHeadSQL = "SELECT " + ticketRowColumns + " FROM ticket WHERE " + claimDay +
	" AND service_id = ANY(ARRAY(SELECT service_id FROM window_service WHERE branch_id = ? AND window_no = ?))" +
	" AND EXISTS (SELECT 1 FROM service_window w WHERE w.branch_id = ? AND w.number = ? AND w.status = ?" +
	" AND NOT EXISTS (SELECT 1 FROM ticket h WHERE h.id = w.current_ticket_id AND h.status = ? AND h.business_date = ?)" +
	" AND NOT EXISTS (SELECT 1 FROM staff st WHERE st.id = w.staff_id AND st.branch_id = w.branch_id AND w.staff_date = ? AND st.services <> ''))" +
	" ORDER BY " + callOrder + " LIMIT 1 FOR UPDATE SKIP LOCKED"

// windowHeadArgs are windowHeadSQL's arguments for window number.
func (t *txn) windowHeadArgs(number int) []any {
	b := t.s.branchID
	return []any{b, t.date, b, number, b, number, int(model.WindowOpen), int(model.Serving), t.date, t.date}
}

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
		pendingRead{windowHeadSQL, t.windowHeadArgs(number), func(scan func(...any) error) error {
			h.found = true
			return scan(h.row.fields()...)
		}})
	if err != nil {
		return heldWindow{}, earlyHead{}, err
	}
	if !found {
		return heldWindow{}, earlyHead{}, noWindow(number)
	}
	return w, h, nil
}

// claims says whether h is the claim for ids, the services the call may
// take of the window's: the first of all of them in serving order is the
// first of those when it is one of those. No head read (the queue empty,
// or the statement turned the call away) claims nothing: the call claims
// on its own, which also says whether the queue is empty.
func (h earlyHead) claims(ids []int64) bool {
	return h.found && slices.Contains(ids, h.row.ServiceID)
}
