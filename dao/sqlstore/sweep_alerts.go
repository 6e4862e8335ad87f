package sqlstore

import (
	"context"
	"errors"
	"time"

	"jiaohao/model"
)

// sweptKinds are the alerts whose conditions the sweeper decides; device
// alerts follow the devices' own reports (settleDevices).
var sweptKinds = []string{model.AlertIdlePause, model.AlertPassedRatio, model.AlertWaitingIdle}

type alertKey struct{ kind, subject string }

// alertRecheck bounds how long a store goes without deciding the alerts
// when nothing was logged: only time moves the conditions then (a window
// idle long enough, a condition false long enough), and seconds do not
// matter to them.
const alertRecheck = 10 * time.Second

// alertMark is the branch version and clock of a store's last alert sweep.
type alertMark struct {
	version int64
	at      time.Time
}

// alertsDue says whether this sweep decides the alerts: after any logged
// change since the last time, or alertRecheck later. Counting the day's
// tickets is the dearest read of a sweep, which every PC on the database
// runs every two seconds; a quiet hall spares it.
func (s *GormStore) alertsDue(ctx context.Context, now time.Time) (alertMark, bool, error) {
	v, err := s.version(s.db.WithContext(ctx))
	if err != nil {
		return alertMark{}, false, s.wrap(err)
	}
	mark := alertMark{v, now}
	last := s.alerts.Load()
	due := last == nil || last.version != v || now.Sub(last.at) >= alertRecheck || now.Before(last.at)
	return mark, due, nil
}

// sweepAlerts compares the conditions that hold now (model.AlertRules,
// from the day's counts and the windows) with the open alerts: a new
// condition raises one, a condition false for alert_clear_s ends its
// alert. Every change is guarded by the row it was decided on, so several
// PCs sweeping at once raise and end each alert once. It returns the
// alerts it raised.
func (s *GormStore) sweepAlerts(ctx context.Context, rules model.AlertRules, now time.Time) (int, error) {
	r := s.read(ctx)
	counts, err := s.serviceCounts(r, s.calendar(ctx), now)
	if err != nil {
		return 0, s.wrap(err)
	}
	windows, err := s.windows(r)
	if err != nil {
		return 0, s.wrap(err)
	}
	conds := rules.Conditions(counts, windows, now)
	holds := map[alertKey]bool{}
	for _, a := range conds {
		holds[alertKey{a.Kind, a.Subject}] = true
	}
	var open []alertRow
	if err := r.Where("branch_id = ? AND open_key = 0 AND kind IN ?", s.branchID, sweptKinds).Find(&open).Error; err != nil {
		return 0, s.wrap(err)
	}
	isOpen := map[alertKey]bool{}
	for _, row := range open {
		k := alertKey{row.Kind, row.Subject}
		isOpen[k] = true
		if err := s.settleOpen(ctx, row, holds[k], rules.ClearAfter, now); err != nil {
			return 0, err
		}
	}
	if err := s.settleDevices(ctx, r, rules, now); err != nil {
		return 0, err
	}
	raised := 0
	for _, a := range conds {
		// A paused window's alert is raised by the sweeper pausing it
		// (pauseIdle), never for a clerk's own pause.
		if a.Kind == model.AlertIdlePause || isOpen[alertKey{a.Kind, a.Subject}] {
			continue
		}
		err := s.write(ctx, func(t *txn) error {
			ok, err := t.raiseAlert(a)
			if err == nil && !ok {
				return errSkip // another PC raised it first
			}
			return err
		})
		switch {
		case errors.Is(err, errSkip):
		case err != nil:
			return raised, err
		default:
			raised++
		}
	}
	return raised, nil
}

// settleOpen keeps an open alert while its condition holds, and ends it
// once the condition has been false for clearAfter: a ratio that dips
// under its threshold for one take does not end the alert and raise the
// next one a minute later.
func (s *GormStore) settleOpen(ctx context.Context, row alertRow, holds bool, clearAfter time.Duration, now time.Time) error {
	db := s.db.WithContext(ctx)
	var err error
	switch {
	case holds && row.ClearSeen != nil:
		err = db.Exec("UPDATE queue_alert SET clear_seen = NULL WHERE id = ? AND open_key = 0", row.ID).Error
	case holds:
	case row.ClearSeen == nil && clearAfter > 0:
		err = db.Exec("UPDATE queue_alert SET clear_seen = ? WHERE id = ? AND open_key = 0 AND clear_seen IS NULL", now, row.ID).Error
	case row.ClearSeen == nil:
		err = s.endSwept(ctx, row.ID, nil)
	case !row.ClearSeen.After(now.Add(-clearAfter)):
		cutoff := now.Add(-clearAfter)
		err = s.endSwept(ctx, row.ID, &cutoff)
	}
	return s.wrap(err)
}

// endSwept ends an open alert in its own transaction (see endAlert for
// clearedBy); one ended by another PC first is no error.
func (s *GormStore) endSwept(ctx context.Context, id int64, clearedBy *time.Time) error {
	err := s.write(ctx, func(t *txn) error {
		ok, err := t.endAlert(id, clearedBy)
		if err == nil && !ok {
			return errSkip // ended by another PC, or its condition came back
		}
		return err
	})
	if errors.Is(err, errSkip) {
		return nil
	}
	return err
}

// settleDevices ends the device alerts no report will end: one marked
// clearing (ReportDevice) for alert_clear_s, and, at once, one of a PC
// that is gone (AlertRules.TerminalGone: revoked, or unseen for
// alert_device_gone_s), since that PC will never say its device works.
func (s *GormStore) settleDevices(ctx context.Context, r *txn, rules model.AlertRules, now time.Time) error {
	var open []alertRow
	if err := r.Where("branch_id = ? AND open_key = 0 AND kind = ?", s.branchID, model.AlertDevice).Find(&open).Error; err != nil || len(open) == 0 {
		return s.wrap(err)
	}
	var rows []terminalRow
	if err := r.Where("branch_id = ?", s.branchID).Find(&rows).Error; err != nil {
		return s.wrap(err)
	}
	terms := make([]model.Terminal, len(rows))
	for i, row := range rows {
		terms[i] = row.toTerminal()
	}
	for _, row := range open {
		var err error
		switch {
		case rules.TerminalGone(terms, row.toModel().Terminal, now):
			err = s.endSwept(ctx, row.ID, nil)
		case row.ClearSeen != nil:
			err = s.settleOpen(ctx, row, false, rules.ClearAfter, now)
		}
		if err != nil {
			return s.wrap(err)
		}
	}
	return nil
}
