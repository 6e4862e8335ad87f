package sqlstore

import (
	"context"
	"strings"

	"jiaohao/model"
)

// devicesKept bounds the device events a snapshot reads back: the newest
// per PC and device decides.
const devicesKept = 500

// ReportDevice logs a device's state change as an event: the manager's
// console follows it live and a snapshot carries the faults still open.
// A fault raises an alert unless one is open for the device (a device
// that keeps failing is one occurrence); a recovery ends it.
func (s *GormStore) ReportDevice(ctx context.Context, kind, fault string) error {
	fault = strings.TrimSpace(fault)
	if !model.DeviceKinds[kind] {
		return model.Errorf(model.EInvalidInput, "设备须为 printer、voice 或 led，收到 %q", kind)
	}
	if err := model.CheckFault(fault); err != nil {
		return err
	}
	terminal := actorOf(ctx)
	subject := model.DeviceSubject(terminal, kind)
	return s.write(ctx, func(t *txn) error {
		t.emit(pendingEvent{kind: model.EvDevice, device: &model.Device{Kind: kind, Fault: fault}})
		if fault == "" {
			return t.endOpenAlert(model.AlertDevice, subject)
		}
		_, err := t.raiseAlert(model.Alert{Kind: model.AlertDevice, Subject: subject, Terminal: terminal, Device: kind, Fault: fault})
		return err
	})
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
