package sqlstore

import (
	"context"

	"jiaohao/model"
)

// step is one state-machine function applied to a loaded ticket inside the
// transaction; it may also adjust placement (requeue) or check targets.
type step func(t *txn, cur model.Ticket) (model.Ticket, error)

// transition loads a ticket, applies the model's rule, stores the result
// guarded by the state it was read in, keeps the windows' current tickets
// in step and logs one event. window is the acting window (0: the manager
// or a timer), whose clerk the event names.
func (s *GormStore) transition(ctx context.Context, id int64, window int, kind string, fn step) (model.Ticket, error) {
	var out model.Ticket
	err := s.write(ctx, func(t *txn) error {
		t.acting = window
		var err error
		out, err = t.apply(id, kind, fn)
		return err
	})
	return out, err
}

func (t *txn) apply(id int64, kind string, fn step) (model.Ticket, error) {
	row, err := t.ticket(id)
	if err != nil {
		return model.Ticket{}, err
	}
	return t.applyRow(row, kind, fn)
}

// applyRow is apply on a row already read (and, for call-next, locked).
// Its writes are sent with the event at the end of the transaction, so it
// is always the transaction's last step.
func (t *txn) applyRow(row ticketRow, kind string, fn step) (model.Ticket, error) {
	c, err := t.codes(row.ServiceID, row.IssueServiceID)
	if err != nil {
		return model.Ticket{}, err
	}
	cur := row.toModel(c)
	next, err := fn(t, cur)
	if err != nil {
		return model.Ticket{}, err
	}
	if err := t.saveTicket(row, next); err != nil {
		return model.Ticket{}, err
	}
	t.syncWindows(cur, next)
	t.emit(pendingEvent{kind: kind, ticket: &next, windowNo: eventWindow(cur, next), from: cur.Status, to: next.Status})
	return next, nil
}

func eventWindow(cur, next model.Ticket) int {
	if next.Window != 0 {
		return next.Window
	}
	return cur.Window
}

// saveTicket writes the changed columns only if the row is still as read;
// otherwise another terminal won the race and the operation is retried.
// The write goes with the transaction's event (see later).
func (t *txn) saveTicket(old ticketRow, n model.Ticket) error {
	serviceID := old.ServiceID
	if c, err := t.codes(old.ServiceID); err != nil {
		return err
	} else if n.Service != c[old.ServiceID] {
		svc, err := t.serviceByCode(n.Service)
		if err != nil {
			return err
		}
		serviceID = svc.ID
	}
	t.later(`UPDATE ticket SET status = ?, lane = ?, priority = ?, sort_key = ?, service_id = ?, window_no = ?,
		call_count = ?, requeued = ?, called_at = ?, serve_started_at = ?, finished_at = ?
		WHERE id = ? AND status = ? AND call_count = ? AND sort_key = ? AND service_id = ? AND COALESCE(window_no, 0) = ?`, true,
		int(n.Status), int(n.Lane), n.Priority, n.SortKey, serviceID, intPtr(n.Window), n.CallCount, n.Requeued,
		n.CalledAt, n.ServeStartAt, n.FinishedAt, old.ID, old.Status, old.CallCount, old.SortKey, old.ServiceID, derefInt(old.WindowNo))
	return nil
}

// syncWindows keeps the windows' current tickets on the ones they hold.
func (t *txn) syncWindows(cur, next model.Ticket) {
	if model.Held(cur) && (!model.Held(next) || next.Window != cur.Window) {
		t.releaseTicket(cur.Window, cur.ID)
	}
	if model.Held(next) {
		t.holdTicket(next.Window, next.ID)
	}
}

func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// Recall re-announces a called ticket at its window.
func (s *GormStore) Recall(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return s.transition(ctx, id, window, model.EvRecall, func(t *txn, c model.Ticket) (model.Ticket, error) {
		return model.Recall(c, window, t.now)
	})
}

// Pass marks a called ticket as passed (it keeps its window).
func (s *GormStore) Pass(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return s.transition(ctx, id, window, model.EvPass, func(_ *txn, c model.Ticket) (model.Ticket, error) {
		return model.Pass(c, window)
	})
}

// UndoPass calls a passed ticket back to the window that passed it; the
// window must be open and free.
func (s *GormStore) UndoPass(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return s.transition(ctx, id, window, model.EvUndoPass, func(t *txn, c model.Ticket) (model.Ticket, error) {
		n, err := model.UndoPass(c, window, t.now)
		if err != nil {
			return n, err
		}
		w, err := t.window(n.Window)
		if err != nil {
			return n, err
		}
		return n, t.desk(w).CanCall(model.ActUndoPass)
	})
}

// StartServing: the customer arrived at the window.
func (s *GormStore) StartServing(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return s.transition(ctx, id, window, model.EvStart, func(t *txn, c model.Ticket) (model.Ticket, error) {
		return model.Start(c, window, t.now)
	})
}

// Finish closes the ticket being served.
func (s *GormStore) Finish(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return s.transition(ctx, id, window, model.EvFinish, func(t *txn, c model.Ticket) (model.Ticket, error) {
		return model.Finish(c, window, t.now)
	})
}

// Cancel abandons a ticket; its number is not reused.
func (s *GormStore) Cancel(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return s.transition(ctx, id, window, model.EvCancel, func(t *txn, c model.Ticket) (model.Ticket, error) {
		return model.Cancel(c, window, t.date, t.now)
	})
}
