package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"jiaohao/model"
)

// The manager's side of the clerks' accounts (model.StaffAdmin). The
// password is hashed with bcrypt before it comes near the database and
// never logged; a wrong one costs the same time as a right one.

var (
	_ model.StaffAdmin = (*GormStore)(nil)
	_ model.StaffDesk  = (*GormStore)(nil)
	_ model.StaffFacts = (*GormStore)(nil)
)

const bcryptCost = bcrypt.DefaultCost

func hashPassword(p string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(p), bcryptCost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// StaffList lists the branch's accounts by staff number.
func (s *GormStore) StaffList(ctx context.Context) ([]model.Staff, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return nil, s.wrap(err)
	}
	var rows []staffRow
	if err := s.db.WithContext(ctx).Where("branch_id = ?", s.branchID).Order("number").Find(&rows).Error; err != nil {
		return nil, s.wrap(err)
	}
	out := make([]model.Staff, len(rows))
	for i, r := range rows {
		out[i] = r.toModel(now)
	}
	return out, nil
}

// AddStaff creates an enabled account; a number already taken is
// EConflict and changes nothing.
func (s *GormStore) AddStaff(ctx context.Context, st model.Staff, password string) (model.Staff, error) {
	st.Number, st.Name = strings.TrimSpace(st.Number), strings.TrimSpace(st.Name)
	if err := model.CheckStaff(st, password); err != nil {
		return model.Staff{}, err
	}
	hash, err := hashPassword(password)
	if err != nil {
		return model.Staff{}, err
	}
	var out model.Staff
	err = s.write(ctx, func(t *txn) error {
		codes, err := t.checkServiceCodes(st.Services)
		if err != nil {
			return err
		}
		if _, err := t.staffByNumber(st.Number); err == nil {
			return errStaffTaken(st.Number)
		} else if !model.IsCode(err, model.ENotFound) {
			return err
		}
		row := staffRow{BranchID: s.branchID, Number: st.Number, Name: st.Name, PassHash: hash, Enabled: true, Services: codes}
		if err := t.Create(&row).Error; err != nil {
			if s.d.errorKind(err) == errUnique {
				return errStaffTaken(st.Number)
			}
			return err
		}
		out = row.toModel(t.now)
		return nil
	})
	return out, err
}

func errStaffTaken(number string) error {
	return model.Errorf(model.EConflict, "工号 %s 已存在 (staff number already taken)", number)
}

// SetStaffEnabled enables or disables an account; disabling also signs
// the clerk out of the window they work at.
func (s *GormStore) SetStaffEnabled(ctx context.Context, number string, enabled bool) (model.Staff, error) {
	return s.updateStaff(ctx, number, func(t *txn, r *staffRow) error {
		r.Enabled = enabled
		if err := t.Model(&staffRow{}).Where("id = ?", r.ID).Update("enabled", enabled).Error; err != nil {
			return err
		}
		if enabled {
			return nil
		}
		return t.signOutStaff(r.ID, 0)
	})
}

// SetStaffServices sets the services the clerk may handle (none: any the
// window serves); an unknown code is refused.
func (s *GormStore) SetStaffServices(ctx context.Context, number string, services []string) (model.Staff, error) {
	return s.updateStaff(ctx, number, func(t *txn, r *staffRow) error {
		codes, err := t.checkServiceCodes(services)
		if err != nil {
			return err
		}
		r.Services = codes
		return t.Model(&staffRow{}).Where("id = ?", r.ID).Update("services", codes).Error
	})
}

// ResetStaffPassword sets a new password and lifts any lock.
func (s *GormStore) ResetStaffPassword(ctx context.Context, number, password string) error {
	if err := model.CheckPassword(password); err != nil {
		return err
	}
	hash, err := hashPassword(password)
	if err != nil {
		return err
	}
	_, err = s.updateStaff(ctx, number, func(t *txn, r *staffRow) error {
		return t.Model(&staffRow{}).Where("id = ?", r.ID).
			Updates(map[string]any{"pass_hash": hash, "fail_count": 0, "locked_until": gorm.Expr("NULL")}).Error
	})
	return err
}

func (s *GormStore) updateStaff(ctx context.Context, number string, fn func(*txn, *staffRow) error) (model.Staff, error) {
	var out model.Staff
	err := s.write(ctx, func(t *txn) error {
		r, err := t.staffByNumber(strings.TrimSpace(number))
		if err != nil {
			return err
		}
		if err := fn(t, &r); err != nil {
			return err
		}
		out = r.toModel(t.now)
		return nil
	})
	return out, err
}

func (t *txn) staffByNumber(number string) (staffRow, error) {
	var rows []staffRow
	if err := t.Where("branch_id = ? AND number = ?", t.s.branchID, number).Limit(1).Find(&rows).Error; err != nil {
		return staffRow{}, err
	}
	if len(rows) == 0 {
		return staffRow{}, model.Errorf(model.ENotFound, "没有工号 %s (unknown staff number)", number)
	}
	return rows[0], nil
}

// checkServiceCodes accepts known service codes and joins them for the
// staff row.
func (t *txn) checkServiceCodes(codes []string) (string, error) {
	var out []string
	for _, c := range codes {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if _, err := t.serviceByCode(c); err != nil {
			return "", err
		}
		out = append(out, c)
	}
	return strings.Join(out, ","), nil
}

// toModel is the account as of now (the database clock): a lock that has
// run out stays in the row until the next wrong password, but is no lock.
func (r staffRow) toModel(now time.Time) model.Staff {
	st := model.Staff{ID: r.ID, Number: r.Number, Name: r.Name, Enabled: r.Enabled, Services: splitCodes(r.Services)}
	if locked(r, now) {
		st.LockedUntil = utcPtr(r.LockedUntil)
	}
	return st
}

func splitCodes(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}
