package sqlstore

import (
	"context"
	"fmt"
	"time"

	"jiaohao/model"
)

// StaffActs reads the finish and pass events of the period's tickets,
// live and archived, in version order so the last pass wins, also when it
// names nobody: a ticket a clerk passed and a window with nobody signed
// in passed again is no clerk's (model.StaffFacts).
func (s *GormStore) StaffActs(ctx context.Context, start, end time.Time) (finished, passed map[int64]int64, err error) {
	db, branch := s.db, s.branchID
	finished, passed = map[int64]int64{}, map[int64]int64{}
	for _, table := range []string{"ticket", "ticket_history"} {
		ids := db.Table(table).Select("id").Where(issuedIn, branch, start, end)
		var rows []struct {
			TicketID int64
			Kind     string
			ToStatus int
			StaffID  *int64
		}
		err := db.WithContext(ctx).Table("queue_event").Select("ticket_id, kind, to_status, staff_id").
			Where("branch_id = ? AND kind IN ? AND ticket_id IN (?)", branch,
				[]string{model.EvFinish, model.EvPass, model.EvTimeout}, ids).Order("version").Find(&rows).Error
		if err != nil {
			return nil, nil, fmt.Errorf("read staff events: %w", err)
		}
		for _, r := range rows {
			switch {
			case r.Kind == model.EvFinish:
				setActor(finished, r.TicketID, r.StaffID)
			case model.Status(r.ToStatus) == model.Passed:
				setActor(passed, r.TicketID, r.StaffID)
			}
		}
	}
	return finished, passed, nil
}

// setActor records the clerk of a ticket's latest act; nil (nobody
// signed in) clears an earlier clerk's.
func setActor(m map[int64]int64, ticket int64, staff *int64) {
	if staff == nil {
		delete(m, ticket)
		return
	}
	m[ticket] = *staff
}
