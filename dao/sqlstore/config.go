package sqlstore

import (
	"context"
	"slices"
	"sort"
	"strings"

	"jiaohao/model"
)

// windows lists the branch's windows with the service codes they serve.
func (s *GormStore) windows(r *txn) ([]model.Window, error) {
	var rows []windowRow
	if err := r.Where("branch_id = ?", s.branchID).Order("number").Find(&rows).Error; err != nil {
		return nil, err
	}
	var links []windowServiceRow
	if err := r.Where("branch_id = ?", s.branchID).Find(&links).Error; err != nil {
		return nil, err
	}
	var extra []windowAllowedRow
	if err := r.Where("branch_id = ?", s.branchID).Find(&extra).Error; err != nil {
		return nil, err
	}
	svc, err := r.services()
	if err != nil {
		return nil, err
	}
	served, allowed := map[int][]int64{}, map[int][]int64{}
	for _, l := range links {
		served[l.WindowNo] = append(served[l.WindowNo], l.ServiceID)
		allowed[l.WindowNo] = append(allowed[l.WindowNo], l.ServiceID)
	}
	for _, l := range extra {
		allowed[l.WindowNo] = append(allowed[l.WindowNo], l.ServiceID)
	}
	clerks, err := s.windowClerks(r, rows)
	if err != nil {
		return nil, err
	}
	out := make([]model.Window, len(rows))
	for i, row := range rows {
		out[i] = row.toModel(codesInOrder(svc, served[row.Number]))
		out[i].Allowed = codesInOrder(svc, allowed[row.Number])
		out[i].Clerk = clerks[row.Number]
	}
	return out, nil
}

// codesInOrder names services by code, each once, in display order.
func codesInOrder(svc map[int64]serviceRow, ids []int64) []string {
	var list []serviceRow
	seen := map[int64]bool{}
	for _, id := range ids {
		if v, ok := svc[id]; ok && !seen[id] {
			seen[id] = true
			list = append(list, v)
		}
	}
	sort.Slice(list, func(a, b int) bool { return list[a].SortOrder < list[b].SortOrder })
	codes := make([]string, len(list))
	for j, v := range list {
		codes[j] = v.Code
	}
	return codes
}

// Windows lists every window of the branch.
func (s *GormStore) Windows(ctx context.Context) ([]model.Window, error) {
	r := s.read(ctx)
	var err error
	if r.date, err = s.today(ctx); err != nil {
		return nil, s.wrap(err)
	}
	ws, err := s.windows(r)
	return ws, s.wrap(err)
}

func (t *txn) windowModel(number int) (model.Window, error) {
	ws, err := t.s.windows(t)
	if err != nil {
		return model.Window{}, err
	}
	for _, w := range ws {
		if w.Number == number {
			return w, nil
		}
	}
	return model.Window{}, model.Errorf(model.ENotFound, "没有 %d 号窗口 (unknown window)", number)
}

// SetWindowStatus opens, pauses, sends to lunch or closes a window.
// Opening restarts the idle timer.
func (s *GormStore) SetWindowStatus(ctx context.Context, window int, status model.WindowStatus) (model.Window, error) {
	if !slices.Contains(model.WindowStatuses, status) {
		return model.Window{}, model.Errorf(model.EInvalidInput, "窗口状态无效")
	}
	var out model.Window
	err := s.write(ctx, func(t *txn) error {
		if _, err := t.window(window); err != nil {
			return err
		}
		if err := t.Exec("UPDATE service_window SET status = ?, last_action_at = ? WHERE branch_id = ? AND number = ?",
			int(status), t.now, s.branchID, window).Error; err != nil {
			return err
		}
		return t.windowEvent(window, &out)
	})
	return out, err
}

func (t *txn) windowEvent(window int, out *model.Window) error {
	w, err := t.windowModel(window)
	if err != nil {
		return err
	}
	*out = w
	t.emit(pendingEvent{kind: model.EvWindow, window: &w, windowNo: window})
	return nil
}

// SetWindowServices replaces the services a window serves, as the
// manager: any service, and the window is allowed it from then on.
func (s *GormStore) SetWindowServices(ctx context.Context, window int, services []string) (model.Window, error) {
	return s.switchServices(ctx, window, services, false)
}

func (t *txn) linkServices(window int, services []string) error {
	return t.replaceServiceRows("window_service", window, services, func(id int64) any {
		return &windowServiceRow{BranchID: t.s.branchID, WindowNo: window, ServiceID: id}
	})
}

// replaceServiceRows makes window's rows in table (what it serves, or what
// it is allowed) the services named by codes, each once.
func (t *txn) replaceServiceRows(table string, window int, codes []string, row func(serviceID int64) any) error {
	trimmed := make([]string, len(codes))
	for i, c := range codes {
		trimmed[i] = strings.TrimSpace(c)
	}
	if err := model.CheckServiceList(trimmed); err != nil {
		return err
	}
	ids := map[int64]bool{}
	for _, code := range trimmed {
		svc, err := t.serviceByCode(code)
		if err != nil {
			return err
		}
		ids[svc.ID] = true
	}
	if err := t.Exec("DELETE FROM "+table+" WHERE branch_id = ? AND window_no = ?", t.s.branchID, window).Error; err != nil {
		return err
	}
	for id := range ids {
		if err := t.Create(row(id)).Error; err != nil {
			return err
		}
	}
	return nil
}

// SaveWindow creates or updates a window by number. Allowed nil keeps
// what the window was allowed (and what it serves now); a list, even an
// empty one, replaces it. Either way the window is allowed what it serves.
func (s *GormStore) SaveWindow(ctx context.Context, w model.Window) (model.Window, error) {
	w.Name = strings.TrimSpace(w.Name)
	if err := model.CheckWindow(w); err != nil {
		return model.Window{}, err
	}
	if w.Status == 0 {
		w.Status = model.WindowOpen
	}
	var out model.Window
	err := s.write(ctx, func(t *txn) error {
		err := s.d.insertIgnore(t.DB, "service_window", []string{"branch_id", "number", "name", "status", "last_action_at"},
			[]any{s.branchID, w.Number, w.Name, int(w.Status), t.now})
		if err != nil {
			return err
		}
		if err := t.Exec("UPDATE service_window SET name = ?, status = ? WHERE branch_id = ? AND number = ?",
			w.Name, int(w.Status), s.branchID, w.Number).Error; err != nil {
			return err
		}
		prior, err := t.windowModel(w.Number)
		if err != nil {
			return err
		}
		if err := t.linkServices(w.Number, w.Services); err != nil {
			return err
		}
		if err := t.saveAllowed(w, prior.Allowed); err != nil {
			return err
		}
		return t.windowEvent(w.Number, &out)
	})
	return out, err
}

// Services lists the branch's services in display order.
func (s *GormStore) Services(ctx context.Context) ([]model.Service, error) {
	var rows []serviceRow
	if err := s.db.WithContext(ctx).Where("branch_id = ?", s.branchID).Order("sort_order, code").Find(&rows).Error; err != nil {
		return nil, s.wrap(err)
	}
	out := make([]model.Service, len(rows))
	for i, r := range rows {
		out[i] = r.toModel()
	}
	return out, nil
}

// SaveService creates or updates a service by code; its Area 0 keeps the
// area it has, or puts a new service in the default area.
func (s *GormStore) SaveService(ctx context.Context, v model.Service) (model.Service, error) {
	v.Code, v.Name = strings.ToUpper(strings.TrimSpace(v.Code)), strings.TrimSpace(v.Name)
	if err := model.CheckService(v); err != nil {
		return v, err
	}
	err := s.write(ctx, func(t *txn) error {
		area, err := t.serviceArea(v.Area)
		if err != nil {
			return err
		}
		err = s.d.insertIgnore(t.DB, "service", []string{"branch_id", "code", "name", "priority", "start_no", "width", "enabled", "sort_order", "area_id"},
			[]any{s.branchID, v.Code, v.Name, v.Priority, v.StartNo, v.Width, v.Enabled, v.SortOrder, area})
		if err != nil {
			return err
		}
		if err := t.Exec("UPDATE service SET name = ?, priority = ?, start_no = ?, width = ?, enabled = ?, sort_order = ? WHERE branch_id = ? AND code = ?",
			v.Name, v.Priority, v.StartNo, v.Width, v.Enabled, v.SortOrder, s.branchID, v.Code).Error; err != nil {
			return err
		}
		// Area 0 keeps the area the service has: older clients send none.
		if v.Area != 0 {
			if err := t.Exec("UPDATE service SET area_id = ? WHERE branch_id = ? AND code = ?", area, s.branchID, v.Code).Error; err != nil {
				return err
			}
		}
		t.svc = nil
		row, err := t.serviceByCode(v.Code)
		if err != nil {
			return err
		}
		v = row.toModel()
		t.emit(pendingEvent{kind: model.EvConfig, note: "service " + v.Code})
		return nil
	})
	return v, err
}

// Settings returns the branch settings with defaults filled in.
func (s *GormStore) Settings(ctx context.Context) (model.Settings, error) {
	st, err := loadSettings(s.db.WithContext(ctx), s.branchID)
	return st, s.wrap(err)
}

// SetSetting validates and stores one setting.
func (s *GormStore) SetSetting(ctx context.Context, key, value string) error {
	if err := model.ValidateSetting(key, value); err != nil {
		return err
	}
	defer s.cal.stale() // day_start may have moved the business date
	return s.write(ctx, func(t *txn) error {
		if err := t.Exec("DELETE FROM setting WHERE branch_id = ? AND skey = ?", s.branchID, key).Error; err != nil {
			return err
		}
		if err := t.Create(&settingRow{BranchID: s.branchID, Key: key, Value: value}).Error; err != nil {
			return err
		}
		t.emit(pendingEvent{kind: model.EvConfig, note: "setting " + key})
		return nil
	})
}
