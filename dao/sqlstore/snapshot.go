package sqlstore

import (
	"context"
	"sort"
	"time"

	"jiaohao/model"
)

// Snapshot reads the version first and the state after it: state can only
// be newer than the version, and events carry their after-state, so
// applying events > version on top of it is exact.
func (s *GormStore) Snapshot(ctx context.Context) (model.Snapshot, error) {
	snap, err := s.snapshot(ctx)
	return snap, s.wrap(err)
}

func (s *GormStore) snapshot(ctx context.Context) (model.Snapshot, error) {
	r := s.read(ctx)
	var snap model.Snapshot
	var err error
	if snap.Version, err = s.version(r.DB); err != nil {
		return snap, err
	}
	if snap.Now, err = s.Now(ctx); err != nil {
		return snap, err
	}
	var b branchRow
	if err := r.First(&b, s.branchID).Error; err != nil {
		return snap, err
	}
	snap.Branch = b.Name
	st, err := r.settings()
	if err != nil {
		return snap, err
	}
	snap.Notice, snap.HallLayout, snap.ShowStaff = st.Notice, st.HallLayout, st.ShowStaff
	// The snapshot reads the zone and day start anyway: they refresh the
	// Store's calendar, so a Follower reloading on a configuration event
	// brings this PC's business date along.
	cal := s.cal.set(b.TimeZone, st.DayStart)
	snap.TimeZone = cal.Loc.String()
	snap.BusinessDate = cal.Date(snap.Now)
	snap.DayEnds = cal.Start(cal.Day(snap.Now).AddDate(0, 0, 1)).UTC()
	if snap.Services, err = s.serviceCounts(r, cal, snap.Now); err != nil {
		return snap, err
	}
	r.date = snap.BusinessDate // the windows' clerks are today's
	if snap.Areas, err = r.areas(); err != nil {
		return snap, err
	}
	if snap.Windows, err = s.windowStates(r); err != nil {
		return snap, err
	}
	if snap.RecentCalls, err = s.recentCalls(r, snap.BusinessDate); err != nil {
		return snap, err
	}
	snap.Passed, err = s.tickets(r, "branch_id = ? AND status = 3 AND business_date = ?", []any{s.branchID, snap.BusinessDate}, "called_at DESC", model.PassedKept)
	if err != nil {
		return snap, err
	}
	if snap.Faults, err = s.faults(r); err != nil {
		return snap, err
	}
	if snap.Rated, err = r.satisfaction(snap.BusinessDate, nil); err != nil {
		return snap, err
	}
	snap.Alerts, err = s.liveAlerts(r)
	return snap, err
}

// serviceCounts counts the business day's tickets, selected by the
// issued_at range of that day in the branch zone (index ix_ticket_issued).
func (s *GormStore) serviceCounts(r *txn, cal model.Calendar, now time.Time) ([]model.ServiceCount, error) {
	svc, err := r.services()
	if err != nil {
		return nil, err
	}
	day := cal.Day(now)
	from, to := cal.Start(day), cal.Start(day.AddDate(0, 0, 1))
	type cnt struct {
		ServiceID      int64
		IssueServiceID int64
		Status         int
		N              int
	}
	var counts []cnt
	err = r.Raw(`SELECT service_id, issue_service_id, status, COUNT(*) AS n FROM ticket
		WHERE branch_id = ? AND issued_at >= ? AND issued_at < ? GROUP BY service_id, issue_service_id, status`,
		s.branchID, from.UTC(), to.UTC()).Scan(&counts).Error
	if err != nil {
		return nil, err
	}
	waiting, taken, passed := map[int64]int{}, map[int64]int{}, map[int64]int{}
	for _, c := range counts {
		taken[c.IssueServiceID] += c.N
		switch model.Status(c.Status) {
		case model.Waiting:
			waiting[c.ServiceID] += c.N
		case model.Passed:
			passed[c.IssueServiceID] += c.N
		}
	}
	rows := make([]serviceRow, 0, len(svc))
	for _, v := range svc {
		rows = append(rows, v)
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].SortOrder != rows[j].SortOrder {
			return rows[i].SortOrder < rows[j].SortOrder
		}
		return rows[i].Code < rows[j].Code
	})
	out := make([]model.ServiceCount, len(rows))
	for i, v := range rows {
		out[i] = model.ServiceCount{Code: v.Code, Name: v.Name, Waiting: waiting[v.ID], Taken: taken[v.ID], Passed: passed[v.ID], Enabled: v.Enabled, Area: v.AreaID}
	}
	return out, nil
}

func (s *GormStore) windowStates(r *txn) ([]model.WindowState, error) {
	ws, err := s.windows(r)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, w := range ws {
		if w.CurrentID != 0 {
			ids = append(ids, w.CurrentID)
		}
	}
	cur := map[int64]model.Ticket{}
	if len(ids) > 0 {
		ts, err := s.tickets(r, "branch_id = ? AND id IN ?", []any{s.branchID, ids}, "id", len(ids))
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			cur[t.ID] = t
		}
	}
	out := make([]model.WindowState, len(ws))
	for i, w := range ws {
		out[i].Window = w
		if t, ok := cur[w.CurrentID]; ok {
			out[i].Current = &t
		}
	}
	return out, nil
}

// recentCalls walks the event log backwards (primary key order) instead of
// sorting the day's tickets.
func (s *GormStore) recentCalls(r *txn, date string) ([]model.Ticket, error) {
	var evs []eventRow
	err := r.Select("ticket_id").Where("branch_id = ? AND kind IN ?", s.branchID, model.CallKinds).
		Order("version DESC").Limit(model.RecentCallsKept * 3).Find(&evs).Error
	if err != nil {
		return nil, err
	}
	var ids []int64
	seen := map[int64]bool{}
	for _, e := range evs {
		if e.TicketID != nil && !seen[*e.TicketID] && len(ids) < model.RecentCallsKept {
			seen[*e.TicketID] = true
			ids = append(ids, *e.TicketID)
		}
	}
	if len(ids) == 0 {
		return []model.Ticket{}, nil
	}
	ts, err := s.tickets(r, "branch_id = ? AND id IN ?", []any{s.branchID, ids}, "id", len(ids))
	if err != nil {
		return nil, err
	}
	byID := map[int64]model.Ticket{}
	for _, t := range ts {
		byID[t.ID] = t
	}
	out := make([]model.Ticket, 0, len(ids))
	for _, id := range ids {
		if t, ok := byID[id]; ok && t.BusinessDate == date { // yesterday's calls do not open the day
			out = append(out, t)
		}
	}
	return out, nil
}

func (s *GormStore) tickets(r *txn, where string, args []any, order string, limit int) ([]model.Ticket, error) {
	var rows []ticketRow
	if err := r.Where(where, args...).Order(order).Limit(limit).Find(&rows).Error; err != nil {
		return nil, err
	}
	ids := make([]int64, 0, 2*len(rows))
	for _, row := range rows {
		ids = append(ids, row.ServiceID, row.IssueServiceID)
	}
	c, err := r.codes(ids...)
	if err != nil {
		return nil, err
	}
	out := make([]model.Ticket, len(rows))
	for i, row := range rows {
		out[i] = row.toModel(c)
	}
	return out, nil
}
