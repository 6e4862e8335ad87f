package sqlstore

import (
	"time"

	"gorm.io/gorm"

	"jiaohao/model"
)

// copyBranch gives branch to the configuration of branch from, in the
// caller's transaction: areas, services (in the copied areas), windows
// with what they serve and allow, settings and the logo. Rows get new
// ids, so the services and areas are mapped as they are copied. Windows start open
// and empty, but a window from's manager closed stays closed: that is
// configuration, not the day's state.
func copyBranch(tx *gorm.DB, from, to int64, now time.Time) error {
	areas, err := copyAreas(tx, from, to)
	if err != nil {
		return err
	}
	services, err := copyServices(tx, from, to, areas)
	if err != nil {
		return err
	}
	var windows []windowRow
	if err := tx.Where("branch_id = ?", from).Order("number").Find(&windows).Error; err != nil {
		return err
	}
	at := now.UTC().Truncate(time.Microsecond)
	for _, w := range windows {
		status := model.WindowOpen
		if model.WindowStatus(w.Status) == model.WindowClosed {
			status = model.WindowClosed
		}
		row := windowRow{BranchID: to, Number: w.Number, Name: w.Name, Status: int(status), LastActionAt: &at}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
	}
	var served []windowServiceRow
	if err := tx.Where("branch_id = ?", from).Find(&served).Error; err != nil {
		return err
	}
	for _, r := range served {
		if err := tx.Create(&windowServiceRow{BranchID: to, WindowNo: r.WindowNo, ServiceID: services[r.ServiceID]}).Error; err != nil {
			return err
		}
	}
	var allowed []windowAllowedRow
	if err := tx.Where("branch_id = ?", from).Find(&allowed).Error; err != nil {
		return err
	}
	for _, r := range allowed {
		if err := tx.Create(&windowAllowedRow{BranchID: to, WindowNo: r.WindowNo, ServiceID: services[r.ServiceID]}).Error; err != nil {
			return err
		}
	}
	var settings []settingRow
	if err := tx.Where("branch_id = ?", from).Find(&settings).Error; err != nil {
		return err
	}
	for _, r := range settings {
		if err := tx.Create(&settingRow{BranchID: to, Key: r.Key, Value: r.Value}).Error; err != nil {
			return err
		}
	}
	// The logo is set with the colours (`jiaohao settings logo`) and shown
	// with them: a copy of the look without it would be half a look.
	var logos []logoRow
	if err := tx.Where("branch_id = ?", from).Find(&logos).Error; err != nil {
		return err
	}
	for _, r := range logos {
		if err := tx.Create(&logoRow{BranchID: to, Data: r.Data, UpdatedAt: at}).Error; err != nil {
			return err
		}
	}
	return nil
}

// copyAreas copies from's waiting areas and maps their ids.
func copyAreas(tx *gorm.DB, from, to int64) (map[int64]int64, error) {
	var rows []areaRow
	if err := tx.Where("branch_id = ?", from).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	ids := make(map[int64]int64, len(rows))
	for _, r := range rows {
		row := areaRow{BranchID: to, Name: r.Name, Place: r.Place}
		if err := tx.Create(&row).Error; err != nil {
			return nil, err
		}
		ids[r.ID] = row.ID
	}
	return ids, nil
}

// copyServices copies from's services into the copied areas and maps
// their ids. A service left in no known area gets area 0, which the
// migration of the new branch puts in its default area.
func copyServices(tx *gorm.DB, from, to int64, areas map[int64]int64) (map[int64]int64, error) {
	var rows []serviceRow
	if err := tx.Where("branch_id = ?", from).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	ids := make(map[int64]int64, len(rows))
	for _, r := range rows {
		row := r
		row.ID, row.BranchID, row.AreaID = 0, to, areas[r.AreaID]
		if err := tx.Create(&row).Error; err != nil {
			return nil, err
		}
		ids[r.ID] = row.ID
	}
	return ids, nil
}
