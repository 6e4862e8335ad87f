package sqlstore

import (
	"context"
	"slices"

	"jiaohao/model"
)

// positionsChunk keeps IN lists well under every engine's parameter limit
// (SQL Server's is 2,100).
const positionsChunk = 500

// positionsHead is how much of the head of the queue Positions reads at
// once: every ticket in it has its tickets ahead there.
const positionsHead = 2 * model.MaxAhead

// Positions is Position for many tickets at once: one read of the head of
// each day's queue (bounded) serves every ticket in it, so the customer
// pages of a whole hall, which ask after every event, cost a few queries,
// not a few per page. A ticket further back than the head reads its own
// bounded count, as Position does. Unknown ids are left out; tickets that
// no longer wait get the zero Position, as from Position.
func (s *GormStore) Positions(ctx context.Context, ids []int64) (map[int64]model.Position, error) {
	out := make(map[int64]model.Position, len(ids))
	var waiting []ticketRow
	r := s.read(ctx)
	for _, chunk := range chunks(ids) {
		var rows []ticketRow
		err := r.Select("id", "service_id", "business_date", "status", "lane", "priority", "sort_key").
			Where("branch_id = ? AND id IN ?", s.branchID, chunk).Find(&rows).Error
		if err != nil {
			return nil, s.wrap(err)
		}
		for _, row := range rows {
			out[row.ID] = model.Position{}
			if model.Status(row.Status) == model.Waiting {
				waiting = append(waiting, row)
			}
		}
	}
	if len(waiting) == 0 {
		return out, nil
	}
	now, err := s.Now(ctx)
	if err != nil {
		return nil, s.wrap(err)
	}
	b, err := r.estimateBase(now)
	if err != nil {
		return nil, s.wrap(err)
	}
	heads := map[string][]ticketRow{}
	for _, row := range waiting {
		head, ok := heads[row.BusinessDate]
		if !ok {
			err := r.Select("id", "service_id").Where("branch_id = ? AND status = 1 AND business_date = ?", s.branchID, row.BusinessDate).
				Order(callOrder).Limit(positionsHead).Find(&head).Error
			if err != nil {
				return nil, s.wrap(err)
			}
			heads[row.BusinessDate] = head
		}
		services := b.services(row.ServiceID)
		at := slices.IndexFunc(head, func(h ticketRow) bool { return h.ID == row.ID })
		if at < 0 && len(head) < positionsHead {
			continue // called since the first read: no longer waiting
		}
		if at < 0 {
			// Behind the head: its own bounded count.
			ahead, total, err := r.aheadOf(row, services)
			if err != nil {
				return nil, s.wrap(err)
			}
			out[row.ID] = b.estimate(row, ahead, total)
			continue
		}
		// As aheadOf reads it: the first aheadRead in order, then a count.
		var ahead []int64
		total := 0
		for _, h := range head[:at] {
			if total < model.MaxAhead && slices.Contains(services, h.ServiceID) {
				if total++; len(ahead) < aheadRead {
					ahead = append(ahead, h.ServiceID)
				}
			}
		}
		out[row.ID] = b.estimate(row, ahead, total)
	}
	return out, nil
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
