package sqlstore

import (
	"context"
	"strings"

	"jiaohao/model"
)

// A number taken on a handheld is printed at a kiosk the staff name: the
// request is the ticket's print_at column, written with the number, and
// the kiosk claims it with one conditional UPDATE before it prints, so a
// ticket is printed once however many PCs see the request, restart or
// reconnect.

var (
	_ model.KioskPrintRequests = (*GormStore)(nil)
	_ model.KioskPrints        = (*GormStore)(nil)
)

// TakeTicketPrintAt takes a number and asks the kiosk terminal named kiosk
// to print it, in one transaction.
func (s *GormStore) TakeTicketPrintAt(ctx context.Context, service string, priority int, source, kiosk string) (model.Ticket, error) {
	kiosk = strings.TrimSpace(kiosk)
	if kiosk == "" {
		return model.Ticket{}, model.Errorf(model.EInvalidInput, "请选择打印号票的取号机 (choose the kiosk to print at)")
	}
	return s.take(ctx, service, priority, source, kiosk)
}

// kioskNamed checks that name is exactly one kiosk terminal of the branch
// that has not been revoked: a request for any other name would wait
// forever.
func (t *txn) kioskNamed(name string) error {
	var n int64
	err := t.Model(&terminalRow{}).Where("branch_id = ? AND name = ? AND role = ? AND revoked = ?",
		t.s.branchID, name, string(model.RoleKiosk), false).Count(&n).Error
	if err != nil {
		return err
	}
	if n == 0 {
		return model.Errorf(model.EInvalidInput, "没有名为 %q 的取号机 (no kiosk of that name)", name)
	}
	if n > 1 {
		// Two kiosks of one name would both see the request as theirs.
		return model.Errorf(model.EInvalidInput, "有 %d 台取号机都名为 %q，请管理员吊销多余的令牌 (several kiosks share that name)", n, name)
	}
	return nil
}

// ClaimPrint is the one conditional UPDATE that makes a print happen once:
// the row changes only while it still asks this kiosk and is unclaimed,
// and the database's row lock lets one claimer through. The claim is an
// event, so the handheld that asked sees the ticket printed.
func (s *GormStore) ClaimPrint(ctx context.Context, id int64, kiosk string) (model.Ticket, error) {
	var out model.Ticket
	err := s.write(ctx, func(t *txn) error {
		res := t.Exec("UPDATE ticket SET printed_at = ? WHERE branch_id = ? AND id = ? AND print_at = ? AND printed_at IS NULL",
			t.now, s.branchID, id, kiosk)
		if res.Error != nil {
			return res.Error
		}
		row, err := t.ticket(id)
		if err != nil {
			return err
		}
		if res.RowsAffected != 1 {
			if row.PrintAt == nil || *row.PrintAt != kiosk {
				return model.Errorf(model.ENotFound, "号码 %s 没有请此取号机打印 (the ticket asks no print of this kiosk)", row.Number)
			}
			return model.Errorf(model.EConflict, "号码 %s 已经打印过 (the ticket was printed already)", row.Number)
		}
		c, err := t.codes(row.ServiceID, row.IssueServiceID)
		if err != nil {
			return err
		}
		out = row.toModel(c)
		st := model.Status(row.Status)
		t.emit(pendingEvent{kind: model.EvPrinted, ticket: &out, from: st, to: st, note: kiosk})
		return nil
	})
	return out, err
}

// PendingPrints are today's unclaimed requests for kiosk, by
// ix_ticket_print: a handful of rows however full the day is.
func (s *GormStore) PendingPrints(ctx context.Context, kiosk string) ([]model.Ticket, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return nil, err
	}
	r := s.read(ctx)
	var rows []ticketRow
	if err := r.Where("branch_id = ? AND print_at = ? AND printed_at IS NULL AND business_date = ?",
		s.branchID, kiosk, s.calendar(ctx).Date(now)).Order("id").Find(&rows).Error; err != nil {
		return nil, s.wrap(err)
	}
	out := make([]model.Ticket, 0, len(rows))
	for _, row := range rows {
		c, err := r.codes(row.ServiceID, row.IssueServiceID)
		if err != nil {
			return nil, s.wrap(err)
		}
		out = append(out, row.toModel(c))
	}
	return out, nil
}
