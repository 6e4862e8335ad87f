package sqlstore

import (
	"context"
	"strings"

	"jiaohao/model"
)

// Requeue puts a passed ticket back to waiting, keeping its number, so that
// exactly requeue_offset tickets of its service are called before it (seed
// 000: "插到当前队首之后若干位"). It takes the lane and priority of the ticket
// it is placed behind so the serving order puts it exactly there.
func (s *GormStore) Requeue(ctx context.Context, id int64, window int) (model.Ticket, error) {
	return s.transition(ctx, id, window, model.EvRequeue, func(t *txn, c model.Ticket) (model.Ticket, error) {
		n, err := model.Requeue(c, window, t.date)
		if err != nil {
			return n, err
		}
		st, err := t.settings()
		if err != nil {
			return n, err
		}
		return t.place(n, st.RequeueOffset)
	})
}

func (t *txn) place(n model.Ticket, offset int) (model.Ticket, error) {
	svc, err := t.serviceByCode(n.Service)
	if err != nil {
		return n, err
	}
	var line []ticketRow
	err = t.Where("branch_id = ? AND status = 1 AND business_date = ? AND service_id = ? AND id <> ?",
		t.s.branchID, t.date, svc.ID, n.ID).Order(callOrder).Limit(offset + 1).Find(&line).Error
	if err != nil {
		return n, err
	}
	switch {
	case len(line) == 0:
		n.Lane, n.SortKey = model.LaneNormal, t.now.UnixMicro()*sortKeyScale
	case offset == 0:
		head := line[0]
		n.Lane, n.Priority, n.SortKey = model.Lane(head.Lane), head.Priority, head.SortKey-1
	case len(line) < offset:
		last := line[len(line)-1]
		n.Lane, n.Priority, n.SortKey = model.Lane(last.Lane), last.Priority, last.SortKey+1
	default:
		anchor := line[offset-1]
		n.Lane, n.Priority, n.SortKey = model.Lane(anchor.Lane), anchor.Priority, anchor.SortKey+1
		if len(line) > offset {
			next := line[offset]
			if next.Lane == anchor.Lane && next.Priority == anchor.Priority && next.SortKey-anchor.SortKey >= 2 {
				n.SortKey = anchor.SortKey + (next.SortKey-anchor.SortKey)/2
			}
		}
	}
	return n, nil
}

// Transfer sends a called or serving ticket to another window (same status
// there; the window must serve its service and not be closed) or into
// another service's queue, keeping its number and issue-time place.
func (s *GormStore) Transfer(ctx context.Context, id int64, window int, to model.TransferTarget) (model.Ticket, error) {
	to.Service = strings.TrimSpace(to.Service)
	if to.Window < 0 {
		return model.Ticket{}, model.Errorf(model.EInvalidInput, "目标窗口号无效")
	}
	return s.transition(ctx, id, window, model.EvTransfer, func(t *txn, c model.Ticket) (model.Ticket, error) {
		n, err := model.Transfer(c, window, to)
		if err != nil {
			return n, err
		}
		if to.Service != "" {
			svc, err := t.serviceByCode(to.Service)
			if err != nil {
				return n, err
			}
			if !svc.Enabled {
				return n, model.Errorf(model.EInvalidInput, "业务 %s 已停办，不能转入", svc.Code)
			}
			return n, nil
		}
		w, err := t.window(to.Window)
		if err != nil {
			return n, err
		}
		if err := t.desk(w).CanReceive(); err != nil {
			return n, err
		}
		if _, err := t.servedIDs(w, c.Service); err != nil {
			return n, err
		}
		return n, nil
	})
}
