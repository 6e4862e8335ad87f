package sqlstore

import (
	"context"
	"errors"

	"jiaohao/model"
)

// ImportCustomers checks every row, then writes them all in one
// transaction. Any bad row, found by the model's checks, by a number or
// ID number twice in the file, or by the register (an unknown level, an
// ID number another customer holds), is named in the result with its line
// and field, and the transaction rolls back: nothing changes.
func (s *GormStore) ImportCustomers(ctx context.Context, rows []model.CustomerInput) (model.ImportResult, error) {
	if len(rows) > model.MaxImportRows {
		return model.ImportResult{}, model.Errorf(model.EInvalidInput, "一次最多导入 %d 行 (at most %d rows at once)", model.MaxImportRows, model.MaxImportRows)
	}
	key, err := s.customerKey(ctx)
	if err != nil {
		return model.ImportResult{}, err
	}
	levels, err := s.CustomerLevels(ctx)
	if err != nil {
		return model.ImportResult{}, err
	}
	known := map[string]bool{}
	for _, l := range levels {
		known[l.Name] = true
	}
	var res model.ImportResult
	checked := make([]model.CustomerInput, len(rows))
	numbers, ids := map[string]int{}, map[string]int{}
	for i, r := range rows {
		c, bad := model.CheckCustomer(r)
		res.Bad = append(res.Bad, bad...)
		if c.Level != "" && c.Unreadable == "" && !known[c.Level] {
			res.Bad = append(res.Bad, model.RowError{Line: c.Line, Field: "level", Message: model.ErrorMessage(model.ErrUnknownLevel(c.Level))})
		}
		if line, ok := numbers[c.Number]; ok && c.Number != "" {
			res.Bad = append(res.Bad, model.RowError{Line: c.Line, Field: "number",
				Message: model.ErrorMessage(model.Errorf(model.ECustomerTaken, "客户号 %s 与第 %d 行重复 (customer number %s repeats line %d)", c.Number, line, c.Number, line))})
		} else {
			numbers[c.Number] = c.Line
		}
		for _, n := range []string{c.IDNumber, c.CardNumber} {
			if n == "" {
				continue
			}
			if line, ok := ids[n]; ok {
				res.Bad = append(res.Bad, model.RowError{Line: c.Line, Field: "id_number",
					Message: model.ErrorMessage(model.Errorf(model.ECustomerTaken, "证件号或卡号与第 %d 行重复 (the ID or card number repeats line %d)", line, line))})
			}
			ids[n] = c.Line
		}
		checked[i] = c
	}
	if len(res.Bad) > 0 {
		return res, nil
	}
	err = s.write(ctx, func(t *txn) error {
		res = model.ImportResult{}
		w, err := t.customerWriter(key)
		if err != nil {
			return err
		}
		for _, c := range checked {
			known, err := w.byNumber(c.Number)
			if err != nil {
				return err
			}
			_, added, err := w.put(c, putByNumber)
			if err != nil {
				var me *model.Error
				if !errors.As(err, &me) {
					return err
				}
				field := "number"
				switch me.Code {
				case model.EUnknownLevel:
					field = "level"
				case model.ECustomerTaken:
					if known != nil || c.IDNumber != "" || c.CardNumber != "" {
						field = "id_number"
					}
				}
				res.Bad = append(res.Bad, model.RowError{Line: c.Line, Field: field, Message: me.Message})
				continue
			}
			// added, not known: under read committed another import's
			// row can appear between the look above and put's own.
			if added {
				res.Added++
			} else {
				res.Updated++
			}
		}
		if len(res.Bad) > 0 {
			return errImportBad
		}
		return nil
	})
	if errors.Is(err, errImportBad) {
		return model.ImportResult{Bad: res.Bad}, nil
	}
	if err != nil {
		return model.ImportResult{}, err
	}
	return res, nil
}
