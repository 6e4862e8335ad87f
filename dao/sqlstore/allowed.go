package sqlstore

import (
	"context"
	"strings"

	"jiaohao/model"
)

// SwitchServices is the clerk switching the services the window serves
// (seed 003 §3.2), among those the manager allowed it; one window event
// tells the hall and the monitor.
func (s *GormStore) SwitchServices(ctx context.Context, window int, services []string) (model.Window, error) {
	return s.switchServices(ctx, window, services, true)
}

// switchServices links the window to services in one transaction. As the
// clerk (limited) only allowed services may be chosen; as the manager any,
// and they become allowed. Either way what the window allowed before stays
// allowed, written down before the link changes: allowed is what the
// window serves plus the stored rows, so a service it stops serving would
// otherwise drop out.
func (s *GormStore) switchServices(ctx context.Context, window int, services []string, limited bool) (model.Window, error) {
	codes := make([]string, len(services))
	for i, c := range services {
		codes[i] = strings.TrimSpace(c)
	}
	var out model.Window
	err := s.write(ctx, func(t *txn) error {
		if err := t.lockWindow(window); err != nil {
			return err
		}
		w, err := t.windowModel(window)
		if err != nil {
			return err
		}
		if limited {
			if err := model.CheckSwitch(w, codes); err != nil {
				return err
			}
		}
		if err := t.linkServices(window, codes); err != nil {
			return err
		}
		if err := t.setAllowed(window, model.AllowedUnion(w.Allowed, codes)); err != nil {
			return err
		}
		return t.windowEvent(window, &out)
	})
	return out, err
}

// lockWindow holds the window's row until the transaction ends, so two
// changes of its services (a clerk's switch, the manager's save) run one
// after the other instead of both replacing the same link rows. An
// UPDATE locks on every engine, SQL Server included.
func (t *txn) lockWindow(window int) error {
	return t.Exec("UPDATE service_window SET last_action_at = last_action_at WHERE branch_id = ? AND number = ?",
		t.s.branchID, window).Error
}

// saveAllowed stores what the manager's window setup allows: w.Allowed
// (nil: prior, what the window allowed before) and what it serves.
func (t *txn) saveAllowed(w model.Window, prior []string) error {
	allowed := prior
	if w.Allowed != nil {
		allowed = make([]string, len(w.Allowed))
		for i, c := range w.Allowed {
			allowed[i] = strings.TrimSpace(c)
		}
	}
	codes := make([]string, len(w.Services))
	for i, c := range w.Services {
		codes[i] = strings.TrimSpace(c)
	}
	return t.setAllowed(w.Number, model.AllowedUnion(allowed, codes))
}

// setAllowed replaces the window's allowed rows with codes.
func (t *txn) setAllowed(window int, codes []string) error {
	return t.replaceServiceRows("window_allowed", window, codes, func(id int64) any {
		return &windowAllowedRow{BranchID: t.s.branchID, WindowNo: window, ServiceID: id}
	})
}
