package sqlstore

import (
	"context"
	"time"

	"jiaohao/model"
)

// StaffToday is the clerk's own page (个人中心): the business day's
// figures of whoever is signed in at the window, counted as the report
// counts them (reports/staff.go): done tickets by the clerk of their
// finish, passed ones by the clerk of their last pass, ratings by the
// clerk of the finish they rate (AvgRating nil while none).
func (s *GormStore) StaffToday(ctx context.Context, window int) (model.StaffFigures, error) {
	r := s.read(ctx)
	var err error
	if r.date, err = s.today(ctx); err != nil {
		return model.StaffFigures{}, s.wrap(err)
	}
	ws, err := s.windows(r)
	if err != nil {
		return model.StaffFigures{}, s.wrap(err)
	}
	var clerk *model.Clerk
	for _, w := range ws {
		if w.Number == window {
			clerk = w.Clerk
		}
	}
	if clerk == nil {
		return model.StaffFigures{}, model.Errorf(model.ENotFound, "%d 号窗口没有员工登录 (nobody is signed in at window %d)", window, window)
	}
	out := model.StaffFigures{Staff: *clerk}
	var done []struct {
		ServeStartedAt *time.Time
		FinishedAt     *time.Time
	}
	if err := r.Raw(`SELECT t.serve_started_at, t.finished_at FROM queue_event e JOIN ticket t ON t.id = e.ticket_id
		WHERE e.branch_id = ? AND e.kind = ? AND e.staff_id = ? AND t.business_date = ? AND t.status = ?`,
		s.branchID, model.EvFinish, clerk.ID, r.date, int(model.Done)).Scan(&done).Error; err != nil {
		return out, s.wrap(err)
	}
	var total time.Duration
	for _, d := range done {
		if d.ServeStartedAt != nil && d.FinishedAt != nil {
			out.Served++
			total += max(d.FinishedAt.Sub(*d.ServeStartedAt), 0)
		}
	}
	if out.Served > 0 {
		out.AvgService = (total / time.Duration(out.Served)).Truncate(time.Millisecond)
	}
	var passes []struct {
		TicketID int64
		StaffID  *int64 // the last pass may name nobody
	}
	if err := r.Raw(`SELECT e.ticket_id, e.staff_id FROM queue_event e JOIN ticket t ON t.id = e.ticket_id
		WHERE e.branch_id = ? AND e.kind IN ? AND e.to_status = ? AND t.business_date = ? AND t.status = ?
		ORDER BY e.version`, s.branchID, []string{model.EvPass, model.EvTimeout}, int(model.Passed), r.date, int(model.Passed)).
		Scan(&passes).Error; err != nil {
		return out, s.wrap(err)
	}
	last := map[int64]int64{}
	for _, p := range passes {
		setActor(last, p.TicketID, p.StaffID)
	}
	for _, id := range last {
		if id == clerk.ID {
			out.Passed++
		}
	}
	rated, err := r.satisfaction(r.date, &clerk.ID)
	if err != nil {
		return out, s.wrap(err)
	}
	out.RatingCount = rated.Count()
	if avg, ok := rated.Average(); ok {
		out.AvgRating = &avg
	}
	return out, nil
}
