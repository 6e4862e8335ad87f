package sqlstore

import (
	"context"
	"strings"

	"jiaohao/model"
)

// CallNext claims the next ticket for a window in one transaction: the pick
// and the claim hold a row lock that other windows skip, so no two windows
// get the same ticket and none is skipped.
func (s *GormStore) CallNext(ctx context.Context, window int, service string) (model.Ticket, error) {
	return s.callNext(ctx, window, service, false)
}

// callNext is call-next in the design's shape, or with serial set in the
// shape of one lock for the whole branch taken first (see compare.go). The
// dialect only picks and locks the row; what is written is model.Call's
// result, stored like every other transition, so the transition has one
// source. The pick returns the whole row, so this costs no round trip over
// a claim that wrote in SQL and then read the row back.
func (s *GormStore) callNext(ctx context.Context, window int, service string, serial bool) (model.Ticket, error) {
	if window <= 0 {
		return model.Ticket{}, model.Errorf(model.EInvalidInput, "窗口号必须大于 0")
	}
	var out model.Ticket
	service = strings.TrimSpace(service)
	all := !serial && service == "" // every service the window may call
	err := s.write(ctx, func(t *txn) error {
		t.acting = window
		if serial {
			if err := t.s.d.lockBranch(t.DB, t.s.branchID); err != nil {
				return err
			}
		}
		w, head, err := t.windowAndHead(window, all)
		if err != nil {
			return err
		}
		if err := t.desk(w).CanCall(model.ActCall); err != nil {
			return err
		}
		t.knowClerk(w)
		ids, err := t.servedIDs(w, service)
		if err != nil {
			return err
		}
		if ids, err = t.clerkServiceIDs(window, ids); err != nil {
			return err
		}
		row, found := head.row, head.found
		if !head.claims(ids) {
			row, found, err = t.s.d.claimNext(t.DB, claim{branchID: t.s.branchID, date: t.date, serviceIDs: ids, serial: serial})
			if err != nil {
				return err
			}
		}
		if !found {
			return model.Errorf(model.EQueueEmpty, "%d 号窗口的业务暂无等待的号码 (queue empty)", window)
		}
		out, err = t.applyRow(row, model.EvCall, func(t *txn, c model.Ticket) (model.Ticket, error) {
			return model.Call(c, window, t.now)
		})
		return err
	})
	return out, err
}

// heldWindow is a window row with the state of the ticket it holds, the
// services it serves and its clerk, read in one query so the busy check,
// the service list and the clerk cost call-next no extra round trip.
type heldWindow struct {
	Number     int
	Status     int
	HeldNumber *string
	HeldStatus *int
	HeldDate   *string
	Services   []int64 // the services the window serves
	StaffID    *int64  // the clerk signed in, for StaffDate's day only
	StaffDate  *string
}

// windowSQL reads a window with the state of the ticket it holds, one row
// per service it serves.
const windowSQL = `SELECT w.number, w.status, h.number AS held_number, h.status AS held_status, h.business_date AS held_date,
		w.staff_id, w.staff_date, ws.service_id
		FROM service_window w LEFT JOIN ticket h ON h.id = w.current_ticket_id
		LEFT JOIN window_service ws ON ws.branch_id = w.branch_id AND ws.window_no = w.number
		WHERE w.branch_id = ? AND w.number = ?`

func (t *txn) window(number int) (heldWindow, error) {
	var w heldWindow
	found := false
	// The first statement of most writes: on PostgreSQL it goes with the
	// transaction's BEGIN, so it costs no round trip of its own.
	if err := t.read(windowSQL, []any{t.s.branchID, number}, w.scanRow(&found)); err != nil {
		return heldWindow{}, err
	}
	if !found {
		return heldWindow{}, noWindow(number)
	}
	return w, nil
}

// scanRow adds a row of windowSQL to w, and sets found.
func (w *heldWindow) scanRow(found *bool) func(scan func(...any) error) error {
	return func(scan func(...any) error) error {
		var service *int64
		if err := scan(&w.Number, &w.Status, &w.HeldNumber, &w.HeldStatus, &w.HeldDate, &w.StaffID, &w.StaffDate, &service); err != nil {
			return err
		}
		*found = true
		if service != nil {
			w.Services = append(w.Services, *service)
		}
		return nil
	}
}

func noWindow(number int) error {
	return model.Errorf(model.ENotFound, "没有 %d 号窗口 (unknown window)", number)
}

// servedIDs lists the services window w calls for, narrowed to one when
// asked; a service the window does not serve is refused.
func (t *txn) servedIDs(w heldWindow, only string) ([]int64, error) {
	ids := w.Services
	if only != "" {
		svc, err := t.serviceByCode(only)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if id == svc.ID {
				return []int64{id}, nil
			}
		}
		return nil, model.Errorf(model.EWindowNotServing, "%d 号窗口不办理业务 %s", w.Number, only)
	}
	if len(ids) == 0 {
		return nil, model.Errorf(model.EWindowNotServing, "%d 号窗口尚未配置办理的业务", w.Number)
	}
	return ids, nil
}

func (t *txn) ticket(id int64) (ticketRow, error) {
	var rows []ticketRow
	if err := t.Where("id = ? AND branch_id = ?", id, t.s.branchID).Limit(1).Find(&rows).Error; err != nil {
		return ticketRow{}, err
	}
	if len(rows) == 0 {
		return ticketRow{}, model.Errorf(model.ENotFound, "没有编号为 %d 的号码 (unknown ticket)", id)
	}
	return rows[0], nil
}

// desk is window w as the model's desk rules see it. The held ticket
// carries what those rules read: its number, state and business day.
func (t *txn) desk(w heldWindow) model.Desk {
	d := model.Desk{Window: w.Number, Status: model.WindowStatus(w.Status), Today: t.date}
	if w.HeldStatus != nil { // nil: no held ticket, or it was archived
		d.Current = &model.Ticket{Window: w.Number, Status: model.Status(*w.HeldStatus)}
		if w.HeldNumber != nil {
			d.Current.Number = *w.HeldNumber
		}
		if w.HeldDate != nil {
			d.Current.BusinessDate = *w.HeldDate
		}
	}
	return d
}

// holdTicket makes id the window's current ticket, with the event.
func (t *txn) holdTicket(window int, id int64) {
	t.later("UPDATE service_window SET current_ticket_id = ?, last_action_at = ? WHERE branch_id = ? AND number = ?", false,
		id, t.now, t.s.branchID, window)
}

// releaseTicket clears the window's current ticket if it is still id,
// with the event.
func (t *txn) releaseTicket(window int, id int64) {
	t.later("UPDATE service_window SET current_ticket_id = NULL, last_action_at = ? WHERE branch_id = ? AND number = ? AND current_ticket_id = ?", false,
		t.now, t.s.branchID, window, id)
}
