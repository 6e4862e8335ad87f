package sqlstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"jiaohao/model"
)

// TakeTicket issues the next number of a service: one atomic increment of
// the (branch, service, business date) sequence row, then the ticket, with
// the unique key as the last guard. Numbers are never made anywhere else.
func (s *GormStore) TakeTicket(ctx context.Context, service string, priority int, source string) (model.Ticket, error) {
	return s.take(ctx, service, priority, source, 0, 0)
}

// take is TakeTicket with, when printAt is not 0, the kiosk terminal asked to
// print the ticket (TakeTicketPrintAt), checked and stored in the same
// transaction as the number; and, when customer is not 0, the registered
// customer it is for (TakeTicketFor), whose level sets the priority and
// maybe the service, read in that transaction too.
func (s *GormStore) take(ctx context.Context, service string, priority int, source string, printAt, customer int64) (model.Ticket, error) {
	if priority != 0 && (priority < model.MinPriority || priority > model.MaxPriority) {
		return model.Ticket{}, model.Errorf(model.EInvalidInput, "优先级须在 %d 到 %d 之间，收到 %d", model.MinPriority, model.MaxPriority, priority)
	}
	if source == "" {
		source = model.SourceKiosk
	}
	if len(source) > 20 || !utf8.ValidString(source) {
		return model.Ticket{}, model.Errorf(model.EInvalidInput, "取号来源名称过长")
	}
	var out model.Ticket
	var pos model.Position
	var last *txn       // the attempt that committed, with its event's version
	kept := false       // the take made its estimate (pos)
	noEstimate := false // it failed once: the take goes on without
	err := s.write(ctx, func(t *txn) error {
		// Each attempt starts from what was asked: a retry must not
		// inherit the service or priority an earlier one settled on
		// (the level's, or the fallback to the tapped one).
		service, priority := service, priority
		last = t
		var at *string
		var atID *int64
		if printAt != 0 {
			name, err := t.kioskByID(printAt)
			if err != nil {
				return err
			}
			at, atID = &name, &printAt
		}
		var who *takenFor
		tapped := service
		if customer != 0 {
			f, err := t.takenFor(customer)
			if err != nil {
				return err
			}
			who = &f
			if f.service != "" {
				service = f.service
			}
			priority = f.priority
		}
		svc, err := t.serviceByCode(strings.TrimSpace(service))
		if who != nil && service != tapped && strings.TrimSpace(tapped) != "" &&
			(model.IsCode(err, model.ENotFound) || (err == nil && !svc.Enabled)) {
			// The level's own service is paused or gone today: the
			// customer is served in the one they chose, still at the
			// level's priority, rather than sent away with no number.
			svc, err = t.serviceByCode(strings.TrimSpace(tapped))
		}
		if err != nil {
			return err
		}
		if !svc.Enabled {
			return model.Errorf(model.EInvalidInput, "业务 %s（%s）已停办", svc.Code, svc.Name)
		}
		if priority == 0 {
			priority = svc.Priority
		}
		// The estimate is made before the sequence row is locked, so other
		// kiosks of the service wait for the number only, not for the walk
		// of the tickets ahead.
		var est *int
		pos, est, err = t.takeEstimate(t.s.takeProbe(svc.ID, t.date, priority, t.now), &noEstimate)
		if err != nil {
			return err
		}
		seq, key, err := t.nextNumber(svc)
		if err != nil {
			return err
		}
		width := svc.Width
		if width == 0 {
			st, err := t.settingsOnce()
			if err != nil {
				return err
			}
			width = st.NumberWidth
		}
		row := ticketRow{
			BranchID: s.branchID, IssueServiceID: svc.ID, ServiceID: svc.ID, BusinessDate: t.date, SeqNo: seq,
			Number: model.FormatNumber(svc.Code, seq, width), Priority: priority, Status: int(model.Waiting),
			Lane: int(model.LaneNormal), SortKey: key, PublicID: newPublicID(),
			Source: source, IssuedAt: t.now, PrintAt: at, PrintKioskID: atID, EstimateS: est,
		}
		if who != nil {
			row.CustomerID, row.CustomerLevel = &customer, &who.level
		}
		kept = est != nil
		if err := t.Create(&row).Error; err != nil {
			return err
		}
		c, err := t.codes(svc.ID)
		if err != nil {
			return err
		}
		out = row.toModel(c)
		t.emit(pendingEvent{kind: model.EvTake, ticket: &out, to: model.Waiting})
		return nil
	})
	if err == nil && kept {
		s.taken.remember(out.ID, last.version, pos)
	}
	return out, err
}

// newPublicID is the customer page's key: 128 random bits.
func newPublicID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
