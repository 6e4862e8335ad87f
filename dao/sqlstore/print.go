package sqlstore

import (
	"context"

	"jiaohao/model"
)

// A number taken on a handheld is printed at a kiosk the staff choose:
// the request is the ticket's print_kiosk_id (the terminal's id; its name
// beside it in print_at for people), written with the number, and the
// kiosk claims it with one conditional UPDATE before it prints, so a
// ticket goes to one printer once however many PCs see the request,
// restart or reconnect. Delivery is at most once: the claim is the
// kiosk's acceptance, and a kiosk that dies between accepting and
// printing loses the slip (the customer still has the QR code).

var (
	_ model.KioskPrintRequests = (*GormStore)(nil)
	_ model.KioskPrints        = (*GormStore)(nil)
)

// TakeTicketPrintAt takes a number and asks the kiosk terminal of id
// kiosk to print it, in one transaction.
func (s *GormStore) TakeTicketPrintAt(ctx context.Context, service string, priority int, source string, kiosk int64) (model.Ticket, error) {
	if kiosk <= 0 {
		return model.Ticket{}, model.Errorf(model.EInvalidInput, "请选择打印号票的取号机 (choose the kiosk to print at)")
	}
	return s.take(ctx, service, priority, source, kiosk, 0)
}

// kioskByID is the name of the kiosk terminal id, one of the branch's
// still allowed in: a request for any other terminal would wait forever.
func (t *txn) kioskByID(id int64) (string, error) {
	var rows []terminalRow
	err := t.Where("branch_id = ? AND id = ? AND role = ? AND revoked = ?",
		t.s.branchID, id, string(model.RoleKiosk), false).Limit(1).Find(&rows).Error
	if err != nil {
		return "", err
	}
	if len(rows) == 0 {
		return "", model.Errorf(model.EInvalidInput, "没有编号为 %d 的取号机 (no kiosk of that id)", id)
	}
	return rows[0].Name, nil
}

// printable are the statuses a ticket still prints in (model's
// Status.Printable, as the WHERE clauses need them).
var printable = printableStatuses()

func printableStatuses() []int {
	var out []int
	for s := model.Waiting; s <= model.Cancelled; s++ {
		if s.Printable() {
			out = append(out, int(s))
		}
	}
	return out
}

// ClaimPrint is the one conditional UPDATE that makes a print happen once:
// the row changes only while it still asks this kiosk, is unclaimed and
// still in line, and the database's row lock lets one claimer through;
// claim is written with it, so a claimer whose answer was lost can tell
// its own win from another's. The claim is an event, so the handheld that
// asked sees the kiosk has the ticket.
func (s *GormStore) ClaimPrint(ctx context.Context, id, kiosk int64, claim string) (model.Ticket, error) {
	if claim == "" || len(claim) > 40 {
		return model.Ticket{}, model.Errorf(model.EInvalidInput, "打印认领须带 1 到 40 个字符的标记 (a claim needs a mark of 1 to 40 characters)")
	}
	var out model.Ticket
	err := s.write(ctx, func(t *txn) error {
		res := t.Exec("UPDATE ticket SET printed_at = ?, print_claim = ? WHERE branch_id = ? AND id = ? AND print_kiosk_id = ? AND printed_at IS NULL AND status IN ?",
			t.now, claim, s.branchID, id, kiosk, printable)
		if res.Error != nil {
			return res.Error
		}
		row, err := t.ticket(id)
		if err != nil {
			return err
		}
		if res.RowsAffected != 1 {
			switch {
			case row.PrintKioskID == nil || *row.PrintKioskID != kiosk:
				return model.Errorf(model.ENotFound, "号码 %s 没有请此取号机打印 (the ticket asks no print of this kiosk)", row.Number)
			case row.PrintedAt != nil:
				return model.Errorf(model.EConflict, "号码 %s 已由取号机接收 (the kiosk has the ticket already)", row.Number)
			default:
				return model.Errorf(model.EInvalidTransition, "号码 %s 已不在队列中，不再打印 (the ticket is %s: not printed)",
					row.Number, model.Status(row.Status))
			}
		}
		c, err := t.codes(row.ServiceID, row.IssueServiceID)
		if err != nil {
			return err
		}
		out = row.toModel(c)
		st := model.Status(row.Status)
		t.emit(pendingEvent{kind: model.EvPrinted, ticket: &out, from: st, to: st, note: out.PrintAt})
		return nil
	})
	return out, err
}

// PendingPrints are today's unclaimed requests for kiosk still in line,
// by ix_ticket_print_kiosk: a handful of rows however full the day is.
func (s *GormStore) PendingPrints(ctx context.Context, kiosk int64) ([]model.Ticket, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return nil, err
	}
	r := s.read(ctx)
	var rows []ticketRow
	if err := r.Where("branch_id = ? AND print_kiosk_id = ? AND printed_at IS NULL AND business_date = ? AND status IN ?",
		s.branchID, kiosk, s.calendar(ctx).Date(now), printable).Order("id").Find(&rows).Error; err != nil {
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
