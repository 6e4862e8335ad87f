package sqlstore

import (
	"context"
	"strings"
	"time"

	"jiaohao/model"
)

// devicesKept bounds the device events a snapshot reads back: the newest
// per PC and device decides.
const devicesKept = 500

// ReportDevice logs a device's state change as an event: the manager's
// console follows it live and a snapshot carries the faults still open.
// A fault raises an alert unless one is open for the device (a device
// that keeps failing is one occurrence). A recovery only marks the alert
// clearing, like a swept condition seen false: the sweeper ends it once
// the device has worked for alert_clear_s, and a fault before then goes
// on with the same occurrence, so a device that flaps, or a token that
// reports it flapping, raises one alert and one chime, not one each time.
func (s *GormStore) ReportDevice(ctx context.Context, kind, fault string) error {
	fault = strings.TrimSpace(fault)
	if !model.DeviceKinds[kind] {
		return model.Errorf(model.EInvalidInput, "设备须为 printer、voice 或 led，收到 %q", kind)
	}
	if err := model.CheckFault(fault); err != nil {
		return err
	}
	st, err := s.Settings(ctx)
	if err != nil {
		return err
	}
	terminal := actorOf(ctx)
	subject := model.DeviceSubject(terminal, kind)
	return s.write(ctx, func(t *txn) error {
		t.emit(pendingEvent{kind: model.EvDevice, device: &model.Device{Kind: kind, Fault: fault}})
		if fault == "" {
			return t.deviceWorks(subject, st.Alerts.ClearAfter)
		}
		if err := t.Exec("UPDATE queue_alert SET clear_seen = NULL WHERE branch_id = ? AND kind = ? AND subject = ? AND open_key = 0 AND clear_seen IS NOT NULL",
			t.s.branchID, model.AlertDevice, subject).Error; err != nil {
			return err
		}
		_, err := t.raiseAlert(model.Alert{Kind: model.AlertDevice, Subject: subject, Terminal: terminal, Device: kind, Fault: fault})
		return err
	})
}

// deviceWorks notes that a device works again: its open alert ends at once
// when alert_clear_s is 0, or else is marked clearing from now (a second
// recovery report keeps the first time).
func (t *txn) deviceWorks(subject string, clearAfter time.Duration) error {
	if clearAfter <= 0 {
		return t.endOpenAlert(model.AlertDevice, subject)
	}
	return t.Exec("UPDATE queue_alert SET clear_seen = ? WHERE branch_id = ? AND kind = ? AND subject = ? AND open_key = 0 AND clear_seen IS NULL",
		t.now, t.s.branchID, model.AlertDevice, subject).Error
}

// faults are the devices whose latest report is a fault (ix_event_kind).
func (s *GormStore) faults(r *txn) ([]model.Device, error) {
	var rows []eventRow
	err := r.Where("branch_id = ? AND kind = ?", s.branchID, model.EvDevice).Order("version DESC").Limit(devicesKept).Find(&rows).Error
	if err != nil {
		return nil, err
	}
	seen := map[[2]string]bool{}
	out := []model.Device{}
	for _, row := range rows {
		e := row.toModel()
		if e.Device == nil {
			continue
		}
		key := [2]string{e.Device.Terminal, e.Device.Kind}
		if seen[key] {
			continue
		}
		seen[key] = true
		if e.Device.Fault != "" {
			out = append(out, *e.Device)
		}
	}
	return out, nil
}
