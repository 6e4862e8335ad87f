package sqlstore

import (
	"context"
	"time"

	"jiaohao/model"
)

// logoRow is the branch logo (model.BranchLogo): in the database, so every
// PC that reaches the branch, directly or through the peer server, shows
// the same one. Its size is capped by model.MaxLogoBytes before a write;
// the column's size only picks a type large enough on every engine.
type logoRow struct {
	BranchID  int64     `gorm:"primaryKey;autoIncrement:false"`
	Data      []byte    `gorm:"size:1048576;not null"`
	UpdatedAt time.Time `gorm:"precision:6;not null"`
}

func (logoRow) TableName() string { return "branch_logo" }

var _ model.BranchLogo = (*GormStore)(nil)

// Logo is the branch logo's image file, nil when none is set.
func (s *GormStore) Logo(ctx context.Context) ([]byte, error) {
	var rows []logoRow
	if err := s.db.WithContext(ctx).Where("branch_id = ?", s.branchID).Limit(1).Find(&rows).Error; err != nil {
		return nil, s.wrap(err)
	}
	if len(rows) == 0 || len(rows[0].Data) == 0 {
		return nil, nil
	}
	return rows[0].Data, nil
}

// SetLogo checks and stores the branch logo (nil or empty removes it);
// every screen reloads through a configuration event. A refused image
// changes nothing.
func (s *GormStore) SetLogo(ctx context.Context, data []byte) error {
	if _, err := model.CheckLogo(data); err != nil {
		return err
	}
	return s.write(ctx, func(t *txn) error {
		if err := t.Exec("DELETE FROM branch_logo WHERE branch_id = ?", s.branchID).Error; err != nil {
			return err
		}
		if len(data) > 0 {
			if err := t.Create(&logoRow{BranchID: s.branchID, Data: data, UpdatedAt: t.now}).Error; err != nil {
				return err
			}
		}
		t.emit(pendingEvent{kind: model.EvConfig, note: "logo"})
		return nil
	})
}
