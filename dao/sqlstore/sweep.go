package sqlstore

import (
	"context"
	"errors"
	"time"

	"jiaohao/model"
)

// Sweep runs the timers as conditional updates: each candidate is moved in
// its own transaction guarded by the state it was seen in, so several PCs
// sweeping at once move each ticket exactly once, with one event.
func (s *GormStore) Sweep(ctx context.Context) (model.SweepResult, error) {
	var res model.SweepResult
	st, err := s.Settings(ctx)
	if err != nil {
		return res, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return res, err
	}
	cutoff := now.Add(-st.CallTimeout)
	// Only today's tickets: one still called from an earlier day is left as
	// it is, for the day's report to list as open at close.
	today := s.calendar(ctx).Date(now)
	var ids []int64
	if err := s.db.WithContext(ctx).Raw("SELECT id FROM ticket WHERE branch_id = ? AND status = 2 AND business_date = ? AND called_at < ? ORDER BY called_at",
		s.branchID, today, cutoff).Scan(&ids).Error; err != nil {
		return res, s.wrap(err)
	}
	for _, id := range ids {
		t, err := s.transition(ctx, id, 0, model.EvTimeout, func(t *txn, c model.Ticket) (model.Ticket, error) {
			if c.Status != model.Called || c.CalledAt == nil || !c.CalledAt.Before(t.now.Add(-st.CallTimeout)) {
				return c, errSkip // recalled, started or moved by another sweeper meanwhile
			}
			if err := t.nameCaller(c); err != nil {
				return c, err
			}
			return model.Timeout(c, st.RecallMax)
		})
		switch {
		case errors.Is(err, errSkip):
		case err != nil:
			return res, err
		case t.Status == model.Passed:
			res.Passed++
		default:
			res.Recalled++
		}
	}
	if st.IdleWindowTimeout > 0 {
		n, err := s.pauseIdle(ctx, now.Add(-st.IdleWindowTimeout))
		res.Paused = n
		res.Alerts += n // each pause raised its alert
		if err != nil {
			return res, err
		}
	}
	mark, due, err := s.alertsDue(ctx, now)
	if err != nil || !due {
		return res, err
	}
	n, err := s.sweepAlerts(ctx, st.Alerts, now)
	res.Alerts += n
	if err == nil {
		s.alerts.Store(&mark)
	}
	return res, err
}

// pauseIdle pauses open windows that hold no ticket and have done nothing
// since the cutoff, so numbers are not called to an empty desk. Each pause
// raises its alert in the same transaction: the guarded update lets one
// sweeper pause the window, so one alert is raised. The pause is a new
// occurrence, so an alert still open from an earlier pause ends first.
func (s *GormStore) pauseIdle(ctx context.Context, cutoff time.Time) (int, error) {
	var nums []int
	if err := s.db.WithContext(ctx).Raw("SELECT number FROM service_window WHERE branch_id = ? AND status = 1 AND current_ticket_id IS NULL AND last_action_at < ?",
		s.branchID, cutoff).Scan(&nums).Error; err != nil {
		return 0, s.wrap(err)
	}
	paused := 0
	for _, n := range nums {
		err := s.write(ctx, func(t *txn) error {
			res := t.Exec("UPDATE service_window SET status = ? WHERE branch_id = ? AND number = ? AND status = 1 AND current_ticket_id IS NULL AND last_action_at < ?",
				int(model.WindowPaused), s.branchID, n, cutoff)
			if res.Error != nil {
				return res.Error
			}
			if res.RowsAffected == 0 {
				return errSkip
			}
			var w model.Window
			if err := t.windowEvent(n, &w); err != nil {
				return err
			}
			t.events[len(t.events)-1].note = "idle"
			subject := model.WindowSubject(n)
			if err := t.endOpenAlert(model.AlertIdlePause, subject); err != nil {
				return err
			}
			_, err := t.raiseAlert(model.Alert{Kind: model.AlertIdlePause, Subject: subject, Window: n})
			return err
		})
		switch {
		case errors.Is(err, errSkip):
		case err != nil:
			return paused, err
		default:
			paused++
		}
	}
	return paused, nil
}
