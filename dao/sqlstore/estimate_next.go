package sqlstore

import (
	"context"
	"math"
	"time"

	"jiaohao/model"
)

// NextPositions plays the estimate for a number of each enabled service
// taken now, as the take itself does (the new row last among its equals),
// from one reading of the shared inputs: a kiosk asks after each change,
// so one call costs one estimate base and one bounded walk per service.
func (s *GormStore) NextPositions(ctx context.Context) (map[string]model.Position, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return nil, s.wrap(err)
	}
	r := s.read(ctx)
	svc, err := r.services()
	if err != nil {
		return nil, s.wrap(err)
	}
	b, err := r.estimateBase(now)
	if err != nil {
		return nil, s.wrap(err)
	}
	date := s.calendar(ctx).Date(now)
	out := make(map[string]model.Position, len(svc))
	for id, sv := range svc {
		if !sv.Enabled {
			continue
		}
		row := s.takeProbe(id, date, sv.Priority, now)
		ahead, total, err := r.aheadOf(row, b.services(id))
		if err != nil {
			return nil, s.wrap(err)
		}
		out[sv.Code] = b.estimate(row, ahead, total)
	}
	return out, nil
}

// takeProbe is a number of the service taken at now as the estimate sees
// it before it exists: last among its equals, after every ticket of its
// lane and priority already taken, whatever its issue time. Within its
// service that is exact (issueKey keeps the keys in sequence order);
// another service's ticket taken in the same milliseconds with a later
// clock may be counted ahead though it will be called after. The tile's
// promise and the take's own estimate are made from this one row, so
// they agree.
func (s *GormStore) takeProbe(serviceID int64, date string, priority int, now time.Time) ticketRow {
	r := probeRow(priority)
	r.BranchID, r.IssueServiceID, r.ServiceID, r.BusinessDate, r.IssuedAt = s.branchID, serviceID, serviceID, date, now
	return r
}

// probeRow is a new number of priority p in serving order: the normal
// lane, after every key.
func probeRow(p int) ticketRow {
	return ticketRow{ID: math.MaxInt64, Priority: p, Status: int(model.Waiting), Lane: int(model.LaneNormal), SortKey: math.MaxInt64}
}
