package sqlstore

import (
	"context"
	"fmt"

	"jiaohao/model"
)

// The kiosk's and the window's sides of the register
// (model.CustomerDesk, model.WindowCustomers).

// IdentifyCustomer finds the enabled customer of a phone, ID or card
// number. A typed number is hashed before it is looked up, so it is never
// in a query's text or the database's log; a phone several customers
// share asks for the card instead.
func (s *GormStore) IdentifyCustomer(ctx context.Context, key string) (model.CustomerMatch, error) {
	k := model.NormalizeKey(key)
	kind, err := model.ClassifyKey(k)
	if err != nil {
		return model.CustomerMatch{}, err
	}
	t := s.read(ctx)
	q := t.Where("branch_id = ? AND enabled = ?", s.branchID, true)
	if kind == model.KeyPhone {
		q = q.Where("phone = ?", k)
	} else {
		secret, err := s.customerKey(ctx)
		if err != nil {
			return model.CustomerMatch{}, err
		}
		h := keyHash(secret, k)
		q = q.Where("(id_hash = ? OR card_hash = ?)", h, h)
	}
	var rows []customerRow
	if err := q.Limit(2).Find(&rows).Error; err != nil {
		return model.CustomerMatch{}, s.wrap(fmt.Errorf("identify: %w", err))
	}
	switch {
	case len(rows) == 0:
		return model.CustomerMatch{}, model.ErrCustomerNotFound()
	case len(rows) > 1:
		return model.CustomerMatch{}, model.Errorf(model.EConflict, "此手机号登记了多位客户，请刷卡或输入证件号 (several customers share this phone; scan the card or enter the ID number)")
	}
	lvl, err := t.level(rows[0].LevelID)
	if err != nil {
		return model.CustomerMatch{}, s.wrap(err)
	}
	return model.CustomerMatch{ID: rows[0].ID, Level: lvl.Name, Priority: lvl.Priority, Service: lvl.Service, Masked: model.MaskName(rows[0].Name)}, nil
}

func (t *txn) level(id int64) (customerLevelRow, error) {
	var rows []customerLevelRow
	if err := t.Where("branch_id = ? AND id = ?", t.s.branchID, id).Limit(1).Find(&rows).Error; err != nil {
		return customerLevelRow{}, err
	}
	if len(rows) == 0 {
		return customerLevelRow{}, model.ErrUnknownLevel(fmt.Sprint(id))
	}
	return rows[0], nil
}

// TakeTicketFor takes a number for an identified customer.
func (s *GormStore) TakeTicketFor(ctx context.Context, service string, customer int64, source string) (model.Ticket, error) {
	if customer <= 0 {
		return model.Ticket{}, model.ErrCustomerNotFound()
	}
	return s.take(ctx, service, 0, source, 0, customer)
}

// takenFor is what a take reads of its customer.
type takenFor struct {
	level    string
	priority int
	service  string
}

// takenFor reads the customer and level in the take's transaction: one
// disabled since the kiosk identified them takes no number as them.
func (t *txn) takenFor(id int64) (takenFor, error) {
	var rows []customerRow
	if err := t.Where("branch_id = ? AND id = ? AND enabled = ?", t.s.branchID, id, true).Limit(1).Find(&rows).Error; err != nil {
		return takenFor{}, err
	}
	if len(rows) == 0 {
		return takenFor{}, model.ErrCustomerNotFound()
	}
	lvl, err := t.level(rows[0].LevelID)
	if err != nil {
		return takenFor{}, err
	}
	return takenFor{level: lvl.Name, priority: lvl.Priority, service: lvl.Service}, nil
}

// WindowCustomer is the customer of the ticket the window holds.
func (s *GormStore) WindowCustomer(ctx context.Context, window int) (model.CustomerCard, error) {
	var rows []struct {
		Ticket             int64
		Number, Name, Note string
		Level              *string
	}
	err := s.db.WithContext(ctx).Raw(`SELECT t.id AS ticket, c.number, c.name, c.note, t.customer_level AS level
		FROM service_window w JOIN ticket t ON t.id = w.current_ticket_id JOIN customer c ON c.id = t.customer_id
		WHERE w.branch_id = ? AND w.number = ? AND c.branch_id = ?`, s.branchID, window, s.branchID).Scan(&rows).Error
	if err != nil {
		return model.CustomerCard{}, s.wrap(fmt.Errorf("window customer: %w", err))
	}
	if len(rows) == 0 {
		return model.CustomerCard{}, model.ErrCustomerNotFound()
	}
	r := rows[0]
	c := model.CustomerCard{Ticket: r.Ticket, Number: r.Number, Name: r.Name, Note: r.Note}
	if r.Level != nil {
		c.Level = *r.Level
	}
	return c, nil
}
