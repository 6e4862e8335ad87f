package sqlstore

import (
	"context"
	"time"

	"jiaohao/model"
)

// positionsChunk keeps IN lists well under every engine's parameter limit
// (SQL Server's is 2,100).
const positionsChunk = 500

// Positions is Position for many tickets at once: the number of queries
// follows the service lines the tickets wait in (one ranking per chunk of
// tickets, one rate per line), not the number of tickets. The customer pages of a whole hall ask after every
// event, so their cost must not grow with the number of pages. Unknown ids
// are left out; tickets that no longer wait get the zero Position, as from
// Position.
func (s *GormStore) Positions(ctx context.Context, ids []int64) (map[int64]model.Position, error) {
	out := make(map[int64]model.Position, len(ids))
	type line struct {
		serviceID int64
		date      string
	}
	waiting := map[int64]line{}
	var serviceIDs []int64
	var dates []string
	lines := map[line]bool{}
	db := s.db.WithContext(ctx)
	for _, chunk := range chunks(ids) {
		var rows []ticketRow
		err := db.Select("id", "service_id", "business_date", "status").
			Where("branch_id = ? AND id IN ?", s.branchID, chunk).Find(&rows).Error
		if err != nil {
			return nil, s.wrap(err)
		}
		for _, r := range rows {
			out[r.ID] = model.Position{}
			if model.Status(r.Status) != model.Waiting {
				continue
			}
			l := line{r.ServiceID, r.BusinessDate}
			waiting[r.ID] = l
			if !lines[l] {
				lines[l] = true
				serviceIDs = append(serviceIDs, r.ServiceID)
				dates = append(dates, r.BusinessDate)
			}
		}
	}
	if len(waiting) == 0 {
		return out, nil
	}
	// The rank in the line's serving order is exactly Position's count of
	// the tickets called first.
	ahead := make(map[int64]int, len(waiting))
	wanted := make([]int64, 0, len(waiting))
	for id := range waiting {
		wanted = append(wanted, id)
	}
	for _, chunk := range chunks(wanted) {
		var ranks []struct {
			ID    int64
			Ahead int
		}
		err := db.Raw(`SELECT id, ahead FROM (
			SELECT id, ROW_NUMBER() OVER (PARTITION BY service_id, business_date ORDER BY `+callOrder+`) - 1 AS ahead
			FROM ticket WHERE branch_id = ? AND status = 1 AND service_id IN ? AND business_date IN ?) ranked
			WHERE id IN ?`, s.branchID, serviceIDs, dates, chunk).Scan(&ranks).Error
		if err != nil {
			return nil, s.wrap(err)
		}
		for _, r := range ranks {
			ahead[r.ID] = r.Ahead
		}
	}
	type rate struct {
		per     time.Duration
		windows int
	}
	rates := make(map[line]rate, len(lines))
	for l := range lines {
		per, windows, err := s.serviceRate(ctx, l.serviceID, l.date)
		if err != nil {
			return nil, s.wrap(err)
		}
		rates[l] = rate{per, windows}
	}
	for id, l := range waiting {
		n, ok := ahead[id]
		if !ok {
			continue // called since the first read: no longer waiting
		}
		n = min(n, model.MaxAhead) // as Position counts
		r := rates[l]
		out[id] = model.Position{Ahead: n, ETASeconds: eta(r.per, n, r.windows)}
	}
	return out, nil
}

// eta spreads the tickets ahead over the open windows serving the line.
func eta(per time.Duration, ahead, windows int) int {
	return int(per.Seconds()) * ahead / windows
}

func chunks(ids []int64) [][]int64 {
	var out [][]int64
	for len(ids) > positionsChunk {
		out = append(out, ids[:positionsChunk])
		ids = ids[positionsChunk:]
	}
	if len(ids) > 0 {
		out = append(out, ids)
	}
	return out
}
