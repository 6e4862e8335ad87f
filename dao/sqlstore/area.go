package sqlstore

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"jiaohao/model"
)

// areaRow is a waiting area (model.Area). The place column is the area's
// Where: "where" is a keyword on every engine.
type areaRow struct {
	ID       int64  `gorm:"primaryKey"`
	BranchID int64  `gorm:"not null;uniqueIndex:ux_area_name,priority:1"`
	Name     string `gorm:"size:40;not null;uniqueIndex:ux_area_name,priority:2"`
	Place    string `gorm:"size:40;not null"`
}

func (areaRow) TableName() string { return "area" }

func (r areaRow) toModel() model.Area { return model.Area{ID: r.ID, Name: r.Name, Where: r.Place} }

// defaultAreaName names the area a branch starts with.
const defaultAreaName = "大厅"

var _ model.Areas = (*GormStore)(nil)

// migrateAreas gives a branch without areas its default one and puts
// every service that has none (a database from before areas, a service
// seeded a moment ago) or an unknown one in the default area. Several PCs may run it at
// once: the insert ignores the row another just wrote, the update is the
// same for all.
func (s *GormStore) migrateAreas(ctx context.Context) error {
	db := s.db.WithContext(ctx)
	var n int64
	if err := db.Model(&areaRow{}).Where("branch_id = ?", s.branchID).Count(&n).Error; err != nil {
		return err
	}
	if n == 0 {
		if err := s.d.insertIgnore(db, "area", []string{"branch_id", "name", "place"}, []any{s.branchID, defaultAreaName, ""}); err != nil {
			return err
		}
	}
	id, err := defaultArea(db, s.branchID)
	if err != nil {
		return err
	}
	// A service left in an area that is gone (deleted while the service
	// was being moved into it) goes back to the default area too.
	return db.Exec("UPDATE service SET area_id = ? WHERE branch_id = ? AND (area_id = 0 OR area_id NOT IN (SELECT id FROM area WHERE branch_id = ?))",
		id, s.branchID, s.branchID).Error
}

// defaultArea is the branch's first area.
func defaultArea(db *gorm.DB, branch int64) (int64, error) {
	var rows []areaRow
	if err := db.Where("branch_id = ?", branch).Order("id").Limit(1).Find(&rows).Error; err != nil {
		return 0, err
	}
	if len(rows) == 0 {
		return 0, fmt.Errorf("branch %d has no waiting area", branch)
	}
	return rows[0].ID, nil
}

// Areas lists the branch's areas, the default first.
func (s *GormStore) Areas(ctx context.Context) ([]model.Area, error) {
	out, err := s.read(ctx).areas()
	return out, s.wrap(err)
}

func (t *txn) areas() ([]model.Area, error) {
	var rows []areaRow
	if err := t.Where("branch_id = ?", t.s.branchID).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]model.Area, len(rows))
	for i, r := range rows {
		out[i] = r.toModel()
	}
	return out, nil
}

// area is one of the branch's areas; another id is a sentence.
func (t *txn) area(id int64) (areaRow, error) {
	var rows []areaRow
	if err := t.Where("branch_id = ? AND id = ?", t.s.branchID, id).Limit(1).Find(&rows).Error; err != nil {
		return areaRow{}, err
	}
	if len(rows) == 0 {
		return areaRow{}, model.Errorf(model.ENotFound, "没有编号为 %d 的等候区 (no waiting area %d)", id, id)
	}
	return rows[0], nil
}

// SaveArea adds (ID 0) or renames an area; every screen reloads.
func (s *GormStore) SaveArea(ctx context.Context, a model.Area) (model.Area, error) {
	a, err := model.CheckArea(a)
	if err != nil {
		return a, err
	}
	err = s.write(ctx, func(t *txn) error {
		if err := t.lockAreas(); err != nil { // two adds of one name: the second reads the first's
			return err
		}
		var same int64
		if err := t.Model(&areaRow{}).Where("branch_id = ? AND name = ? AND id <> ?", s.branchID, a.Name, a.ID).Count(&same).Error; err != nil {
			return err
		}
		if same > 0 {
			return model.Errorf(model.EConflict, "已有名为“%s”的等候区 (an area named %q exists)", a.Name, a.Name)
		}
		row := areaRow{ID: a.ID, BranchID: s.branchID, Name: a.Name, Place: a.Where}
		if a.ID == 0 {
			if err := t.Create(&row).Error; err != nil {
				return err
			}
		} else {
			if _, err := t.area(a.ID); err != nil {
				return err
			}
			if err := t.Exec("UPDATE area SET name = ?, place = ? WHERE branch_id = ? AND id = ?", a.Name, a.Where, s.branchID, a.ID).Error; err != nil {
				return err
			}
		}
		a = row.toModel()
		t.emit(pendingEvent{kind: model.EvConfig, note: "area " + a.Name})
		return nil
	})
	return a, err
}

// DeleteArea removes an empty area that is not the branch's last.
func (s *GormStore) DeleteArea(ctx context.Context, id int64) error {
	return s.write(ctx, func(t *txn) error {
		if err := t.lockAreas(); err != nil {
			return err
		}
		a, err := t.area(id)
		if err != nil {
			return err
		}
		var n int64
		if err := t.Model(&serviceRow{}).Where("branch_id = ? AND area_id = ?", s.branchID, id).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return model.Errorf(model.EAreaNotEmpty, "等候区“%s”还有 %d 项业务，请先把业务移到其他等候区，未删除 (area %q still has %d services; move them first, nothing deleted)", a.Name, n, a.Name, n)
		}
		if err := t.Model(&areaRow{}).Where("branch_id = ?", s.branchID).Count(&n).Error; err != nil {
			return err
		}
		if n <= 1 {
			return model.Errorf(model.EInvalidInput, "网点至少要有一个等候区，未删除 (a branch keeps at least one area; nothing deleted)")
		}
		if err := t.Exec("DELETE FROM area WHERE branch_id = ? AND id = ?", s.branchID, id).Error; err != nil {
			return err
		}
		t.emit(pendingEvent{kind: model.EvConfig, note: "area deleted " + a.Name})
		return nil
	})
}

// lockAreas makes the area changes take turns across PCs: each reads
// before it writes (the area is there, the area is empty, the name is
// free), and two at once would both pass: a service left in an area that
// is gone, or a duplicate key error instead of a sentence. Both are the manager's rare work, so the
// branch lock costs nothing that matters.
func (t *txn) lockAreas() error { return t.s.d.lockBranch(t.DB, t.s.branchID) }

// serviceArea is the area a saved service goes to: the one asked for,
// which must exist, or for 0 the default (used only by a new service).
func (t *txn) serviceArea(id int64) (int64, error) {
	if err := t.lockAreas(); err != nil {
		return 0, err
	}
	if id == 0 {
		return defaultArea(t.DB, t.s.branchID)
	}
	if _, err := t.area(id); err != nil {
		return 0, err
	}
	return id, nil
}
