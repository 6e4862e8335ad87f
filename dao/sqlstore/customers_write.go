package sqlstore

import (
	"errors"

	"jiaohao/model"
)

// customerWriter writes checked customers inside one transaction: the one
// place a typed ID or card number becomes its hash and last 4 digits, for
// a single save and for an import alike.
type customerWriter struct {
	t      *txn
	key    []byte
	levels map[string]customerLevelRow // by name
	names  map[int64]string            // level names by id
}

func (t *txn) customerWriter(key []byte) (*customerWriter, error) {
	rows, err := t.levels()
	if err != nil {
		return nil, err
	}
	w := &customerWriter{t: t, key: key, levels: map[string]customerLevelRow{}, names: map[int64]string{}}
	for _, r := range rows {
		w.levels[r.Name], w.names[r.ID] = r, r.Name
	}
	return w, nil
}

// putMode says how put finds the row a customer replaces.
type putMode int

const (
	putNew      putMode = iota // a new customer: a known number is ECustomerTaken
	putByID                    // the customer of in.ID
	putByNumber                // an import: the customer of the number, or a new one
)

// put writes one customer that model.CheckCustomer accepted and returns
// its row and whether it was added; an unknown level, a number or ID number another customer has,
// or an unknown ID is a domain error and writes nothing.
func (w *customerWriter) put(in model.CustomerInput, mode putMode) (customerRow, bool, error) {
	t := w.t
	lvl, ok := w.levels[in.Level]
	if !ok {
		return customerRow{}, false, model.ErrUnknownLevel(in.Level)
	}
	same, err := w.byNumber(in.Number)
	if err != nil {
		return customerRow{}, false, err
	}
	row := customerRow{BranchID: t.s.branchID, Enabled: true}
	switch mode {
	case putNew:
		if same != nil {
			return customerRow{}, false, model.ErrCustomerTaken(in.Number)
		}
	case putByID:
		old, err := w.byID(in.ID)
		if err != nil {
			return customerRow{}, false, err
		}
		if same != nil && same.ID != old.ID {
			return customerRow{}, false, model.ErrCustomerTaken(in.Number)
		}
		row = old
		row.Enabled = in.Enabled
	case putByNumber:
		if same != nil {
			row = *same
		}
	}
	row.Number, row.Name, row.Phone, row.LevelID, row.Note = in.Number, in.Name, in.Phone, lvl.ID, in.Note
	old := []*string{row.IDHash, row.CardHash}
	if err := w.setNumber(&row.IDHash, &row.IDLast4, in.IDNumber, in.ClearID, row.ID); err != nil {
		return customerRow{}, false, err
	}
	if err := w.setNumber(&row.CardHash, &row.CardLast4, in.CardNumber, in.ClearCard, row.ID); err != nil {
		return customerRow{}, false, err
	}
	added := row.ID == 0 // what byNumber saw, not what the caller looked up before
	if err := t.Save(&row).Error; err != nil {
		if t.s.d.errorKind(err) == errUnique {
			if mode == putByNumber {
				// Another import added the number since byNumber looked:
				// the import again, from the start, updates it instead.
				return customerRow{}, false, errConflict
			}
			return customerRow{}, false, model.ErrCustomerTaken(in.Number)
		}
		return customerRow{}, false, err
	}
	if err := w.keepKeys(row.ID, old, []*string{row.IDHash, row.CardHash}); err != nil {
		return customerRow{}, false, err
	}
	return row, added, nil
}

// keepKeys makes customer_key hold the customer's hashes now and no
// longer the ones it gave up. A hash another customer's row holds, which
// another PC wrote since setNumber looked, is ECustomerTaken; the insert
// ignores the clash rather than fail, so an import's transaction stays
// usable to name the row.
func (w *customerWriter) keepKeys(self int64, old, now []*string) error {
	t := w.t
	want := map[string]bool{}
	for _, h := range now {
		if h != nil {
			want[*h] = true
		}
	}
	for _, h := range old {
		if h != nil && !want[*h] {
			if err := t.Where("branch_id = ? AND hash = ? AND customer_id = ?", t.s.branchID, *h, self).Delete(&customerKeyRow{}).Error; err != nil {
				return err
			}
		}
	}
	for _, h := range now {
		if h == nil || !want[*h] {
			continue
		}
		delete(want, *h) // the same number as ID and card: claimed once
		if err := t.s.d.insertIgnore(t.DB, "customer_key", []string{"branch_id", "hash", "customer_id"}, []any{t.s.branchID, *h, self}); err != nil {
			return err
		}
		var owner []int64
		if err := t.Model(&customerKeyRow{}).Where("branch_id = ? AND hash = ?", t.s.branchID, *h).Pluck("customer_id", &owner).Error; err != nil {
			return err
		}
		// None seen: another transaction holds it, committed after this
		// one's snapshot (MySQL's repeatable read).
		if len(owner) != 1 || owner[0] != self {
			return model.Errorf(model.ECustomerTaken, "此证件号或卡号刚被登记给另一位客户 (this ID or card number was just given to another customer)")
		}
	}
	return nil
}

// setNumber sets a hash column from a typed number ("" keeps it, clear
// removes it); a number another customer holds is refused, so a scan
// finds one person.
func (w *customerWriter) setNumber(hash *(*string), last4 *string, number string, clear bool, self int64) error {
	if number == "" {
		if clear {
			*hash, *last4 = nil, ""
		}
		return nil
	}
	h := keyHash(w.key, number)
	var ids []int64
	if err := w.t.Model(&customerRow{}).Where("branch_id = ? AND (id_hash = ? OR card_hash = ?)", w.t.s.branchID, h, h).
		Limit(2).Pluck("id", &ids).Error; err != nil {
		return err
	}
	for _, id := range ids {
		if id != self {
			return model.Errorf(model.ECustomerTaken, "此证件号或卡号已登记给另一位客户，尾号 %s (this ID or card number belongs to another customer, ending %s)",
				model.Last4(number), model.Last4(number))
		}
	}
	*hash, *last4 = &h, model.Last4(number)
	return nil
}

func (w *customerWriter) byNumber(number string) (*customerRow, error) {
	var rows []customerRow
	if err := w.t.Where("branch_id = ? AND number = ?", w.t.s.branchID, number).Limit(1).Find(&rows).Error; err != nil || len(rows) == 0 {
		return nil, err
	}
	return &rows[0], nil
}

func (w *customerWriter) byID(id int64) (customerRow, error) {
	var rows []customerRow
	if err := w.t.Where("branch_id = ? AND id = ?", w.t.s.branchID, id).Limit(1).Find(&rows).Error; err != nil {
		return customerRow{}, err
	}
	if len(rows) == 0 {
		return customerRow{}, model.ErrCustomerNotFound()
	}
	return rows[0], nil
}

// errImportBad rolls an import back once every row was tried.
var errImportBad = errors.New("import has bad rows")
