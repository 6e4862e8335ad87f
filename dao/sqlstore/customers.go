package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"jiaohao/model"
)

// The manager's side of the register (model.CustomerRegister). Changes to
// it write no queue event: no screen follows the register, and a
// customer's name has no place in the event log every terminal reads.

var (
	_ model.CustomerRegister = (*GormStore)(nil)
	_ model.CustomerDesk     = (*GormStore)(nil)
	_ model.WindowCustomers  = (*GormStore)(nil)
)

// migrateLevels gives a branch without levels the default ones; the
// insert ignores a row another PC just wrote.
func (s *GormStore) migrateLevels(ctx context.Context) error {
	db := s.db.WithContext(ctx)
	var n int64
	if err := db.Model(&customerLevelRow{}).Where("branch_id = ?", s.branchID).Count(&n).Error; err != nil || n > 0 {
		return err
	}
	for _, l := range defaultLevels {
		var svc int64
		if l.Service != "" {
			if err := db.Model(&serviceRow{}).Where("branch_id = ? AND code = ?", s.branchID, l.Service).Count(&svc).Error; err != nil {
				return err
			}
			if svc == 0 {
				l.Service = ""
			}
		}
		if err := s.d.insertIgnore(db, "customer_level", []string{"branch_id", "name", "priority", "service", "sort_order"},
			[]any{s.branchID, l.Name, l.Priority, l.Service, l.SortOrder}); err != nil {
			return err
		}
	}
	return nil
}

// CustomerLevels lists the branch's levels in their order.
func (s *GormStore) CustomerLevels(ctx context.Context) ([]model.CustomerLevel, error) {
	rows, err := s.read(ctx).levels()
	if err != nil {
		return nil, s.wrap(err)
	}
	out := make([]model.CustomerLevel, len(rows))
	for i, r := range rows {
		out[i] = r.toModel()
	}
	return out, nil
}

func (r customerLevelRow) toModel() model.CustomerLevel {
	return model.CustomerLevel{ID: r.ID, Name: r.Name, Priority: r.Priority, Service: r.Service, SortOrder: r.SortOrder}
}

func (t *txn) levels() ([]customerLevelRow, error) {
	var rows []customerLevelRow
	err := t.Where("branch_id = ?", t.s.branchID).Order("sort_order, id").Find(&rows).Error
	return rows, err
}

// SaveCustomerLevel adds or edits a level; a name another level has is
// EConflict, a service the branch lacks ENotFound.
func (s *GormStore) SaveCustomerLevel(ctx context.Context, l model.CustomerLevel) (model.CustomerLevel, error) {
	l, err := model.CheckCustomerLevel(l)
	if err != nil {
		return l, err
	}
	var out model.CustomerLevel
	err = s.write(ctx, func(t *txn) error {
		if l.Service != "" {
			if _, err := t.serviceByCode(l.Service); err != nil {
				return err
			}
		}
		rows, err := t.levels()
		if err != nil {
			return err
		}
		found := l.ID == 0
		for _, r := range rows {
			if r.Name == l.Name && r.ID != l.ID {
				return model.Errorf(model.EConflict, "已有客户等级“%s” (the level %q already exists)", l.Name, l.Name)
			}
			found = found || r.ID == l.ID
		}
		if !found {
			return model.Errorf(model.ENotFound, "没有这个客户等级 (no such level)")
		}
		if l.ID == 0 && len(rows) >= model.MaxLevels {
			return model.Errorf(model.EInvalidInput, "客户等级最多 %d 个 (at most %d levels)", model.MaxLevels, model.MaxLevels)
		}
		row := customerLevelRow{ID: l.ID, BranchID: s.branchID, Name: l.Name, Priority: l.Priority, Service: l.Service, SortOrder: l.SortOrder}
		if err := t.Save(&row).Error; err != nil {
			if s.d.errorKind(err) == errUnique {
				return model.Errorf(model.EConflict, "已有客户等级“%s” (the level %q already exists)", l.Name, l.Name)
			}
			return err
		}
		out = row.toModel()
		return nil
	})
	return out, err
}

// Customers finds customers by number, phone, part of the name, or a card
// or ID number, which is hashed to look up.
func (s *GormStore) Customers(ctx context.Context, query string, limit int) ([]model.Customer, error) {
	if limit <= 0 || limit > 500 {
		limit = 500
	}
	t := s.read(ctx)
	q := t.Where("branch_id = ?", s.branchID)
	if query = strings.TrimSpace(query); query != "" {
		key, err := s.customerKey(ctx)
		if err != nil {
			return nil, err
		}
		k := model.NormalizeKey(query)
		h := keyHash(key, k)
		if kind, _ := model.ClassifyKey(k); kind == model.KeyIDNumber || kind == model.KeyCard {
			// Only the hash goes to the database: the number itself would
			// sit in a server's statement log.
			q = q.Where("(id_hash = ? OR card_hash = ?)", h, h)
		} else {
			like := "%" + strings.NewReplacer("%", "", "_", "", "\\", "").Replace(query) + "%"
			q = q.Where("(number = ? OR phone = ? OR name LIKE ?)", query, k, like)
		}
	}
	var rows []customerRow
	if err := q.Order("number").Limit(limit).Find(&rows).Error; err != nil {
		return nil, s.wrap(fmt.Errorf("customers: %w", err))
	}
	names, err := t.levelNames()
	if err != nil {
		return nil, s.wrap(err)
	}
	out := make([]model.Customer, len(rows))
	for i, r := range rows {
		out[i] = r.toModel(names)
	}
	return out, nil
}

func (t *txn) levelNames() (map[int64]string, error) {
	rows, err := t.levels()
	names := make(map[int64]string, len(rows))
	for _, r := range rows {
		names[r.ID] = r.Name
	}
	return names, err
}

func (r customerRow) toModel(levels map[int64]string) model.Customer {
	return model.Customer{ID: r.ID, Number: r.Number, Name: r.Name, Phone: r.Phone, Level: levels[r.LevelID],
		Note: r.Note, IDLast4: r.IDLast4, CardLast4: r.CardLast4, Enabled: r.Enabled}
}

// SaveCustomer adds or edits one customer; its bad fields are the first
// one's sentence and code, and nothing changes.
func (s *GormStore) SaveCustomer(ctx context.Context, in model.CustomerInput) (model.Customer, error) {
	in, bad := model.CheckCustomer(in)
	if len(bad) > 0 {
		return model.Customer{}, firstBad(bad)
	}
	key, err := s.customerKey(ctx)
	if err != nil {
		return model.Customer{}, err
	}
	var out model.Customer
	err = s.write(ctx, func(t *txn) error {
		w, err := t.customerWriter(key)
		if err != nil {
			return err
		}
		mode := putByID
		if in.ID == 0 {
			mode = putNew
		}
		row, _, err := w.put(in, mode)
		if err != nil {
			return err
		}
		out = row.toModel(w.names)
		return nil
	})
	return out, err
}

// firstBad is the error of a single save's first bad field, with the
// code of the rule it broke.
func firstBad(bad []model.RowError) error {
	code := model.EInvalidInput
	switch bad[0].Field {
	case "phone":
		code = model.EBadPhone
	case "id_number", "card_number":
		code = model.EBadIDNumber
	case "level":
		code = model.EUnknownLevel
	}
	return &model.Error{Code: code, Message: bad[0].Message}
}
