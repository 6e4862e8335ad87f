package peer

import (
	"net/http"

	"jiaohao/model"
)

// Window, service and setting routes, the read-only views, and the small
// routes a remote Store needs (sweep, clock, who am I, event log).

func (s *Server) windowStatus(w http.ResponseWriter, r *http.Request, p principal) error {
	n, err := pathWindow(r, p)
	if err != nil {
		return err
	}
	q, err := decode[statusRequest](r, false)
	if err != nil {
		return err
	}
	st, _ := model.ParseWindowStatus(q.Status) // validated by decode
	win, err := s.store.SetWindowStatus(r.Context(), n, st)
	return answer(w, win, err)
}

func (s *Server) windowServices(w http.ResponseWriter, r *http.Request, p principal) error {
	n, err := pathWindow(r, p)
	if err != nil {
		return err
	}
	q, err := decode[servicesRequest](r, false)
	if err != nil {
		return err
	}
	set := s.store.SetWindowServices
	if q.AllowedOnly || !p.may(model.PermManage) {
		set = s.store.SwitchServices // a clerk: only what the manager allowed
	}
	win, err := set(r.Context(), n, q.Services)
	return answer(w, win, err)
}

func (s *Server) saveWindow(w http.ResponseWriter, r *http.Request, p principal) error {
	n, err := pathWindow(r, p)
	if err != nil {
		return err
	}
	q, err := decode[windowRequest](r, false)
	if err != nil {
		return err
	}
	win := model.Window{Number: n, Name: q.Name, Services: q.Services, Status: model.WindowOpen}
	if q.Allowed != nil {
		win.Allowed = append([]string{}, *q.Allowed...) // [] too: only what it serves
	}
	if q.Status != "" {
		win.Status, _ = model.ParseWindowStatus(q.Status)
	} else if old, err := s.findWindow(r, n); err != nil {
		return err
	} else if old != nil {
		win.Status = old.Status
	}
	if win.Services == nil {
		win.Services = []string{}
	}
	saved, err := s.store.SaveWindow(r.Context(), win)
	return answer(w, saved, err)
}

func (s *Server) findWindow(r *http.Request, n int) (*model.Window, error) {
	ws, err := s.store.Windows(r.Context())
	if err != nil {
		return nil, err
	}
	for i := range ws {
		if ws[i].Number == n {
			return &ws[i], nil
		}
	}
	return nil, nil
}

func (s *Server) saveService(w http.ResponseWriter, r *http.Request, _ principal) error {
	code := r.PathValue("code")
	if err := model.CheckServiceCode(code); err != nil {
		return err
	}
	q, err := decode[serviceRequest](r, false)
	if err != nil {
		return err
	}
	svc := model.Service{Code: code, Name: q.Name, Priority: q.Priority, StartNo: q.StartNo,
		Width: q.Width, Enabled: q.Enabled, SortOrder: q.SortOrder, Area: q.Area}
	all, err := s.store.Services(r.Context())
	if err != nil {
		return err
	}
	for _, old := range all {
		if old.Code == code {
			svc.ID = old.ID // an update, not a second service with the same code
		}
	}
	saved, err := s.store.SaveService(r.Context(), svc)
	return answer(w, saved, err)
}

func (s *Server) setSetting(w http.ResponseWriter, r *http.Request, _ principal) error {
	key := r.PathValue("key")
	if !validSettingKey(key) {
		return invalid("设置项名称无效 (unknown setting key)")
	}
	q, err := decode[settingRequest](r, false)
	if err != nil {
		return err
	}
	if err := s.store.SetSetting(r.Context(), key, q.Value); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"key": key, "value": q.Value})
	return nil
}

func (s *Server) windows(w http.ResponseWriter, r *http.Request, _ principal) error {
	ws, err := s.store.Windows(r.Context())
	if ws == nil {
		ws = []model.Window{}
	}
	return answer(w, ws, err)
}

func (s *Server) services(w http.ResponseWriter, r *http.Request, _ principal) error {
	ss, err := s.store.Services(r.Context())
	if ss == nil {
		ss = []model.Service{}
	}
	return answer(w, ss, err)
}

func (s *Server) settings(w http.ResponseWriter, r *http.Request, _ principal) error {
	st, err := s.store.Settings(r.Context())
	return answer(w, st.Raw, err)
}

func (s *Server) snapshot(w http.ResponseWriter, r *http.Request, _ principal) error {
	snap, err := s.snaps.get(r.Context())
	return answer(w, snap, err)
}

// answer writes v with 200, or returns err.
func answer[T any](w http.ResponseWriter, v T, err error) error {
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

// reportDevice: any PC reports its own devices; the actor is its token.
func (s *Server) reportDevice(w http.ResponseWriter, r *http.Request, _ principal) error {
	q, err := decode[deviceRequest](r, false)
	if err != nil {
		return err
	}
	if err := s.store.ReportDevice(r.Context(), q.Kind, q.Fault); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) sweepNow(w http.ResponseWriter, r *http.Request, _ principal) error {
	res, err := s.store.Sweep(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

func (s *Server) now(w http.ResponseWriter, r *http.Request, _ principal) error {
	t, err := s.store.Now(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"now": t})
	return nil
}

func (s *Server) whoami(w http.ResponseWriter, _ *http.Request, p principal) error {
	writeJSON(w, http.StatusOK, Whoami{ID: p.ID, Name: p.Name, Role: p.Role, Window: p.Window, Engine: s.store.Engine()})
	return nil
}

// Whoami is what the server knows about the calling terminal.
type Whoami struct {
	ID     int64      `json:"id"`
	Name   string     `json:"name"`
	Role   model.Role `json:"role"`
	Window int        `json:"window"`
	Engine string     `json:"engine"`
}

func (s *Server) eventLog(w http.ResponseWriter, r *http.Request, _ principal) error {
	since, err := parseSince(r.URL.Query().Get("since"))
	if err != nil {
		return err
	}
	limit := 500
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := parseDigits(v, 4)
		if err != nil || n < 1 || n > 1000 {
			return invalid("limit 须在 1 到 1000 之间 (limit must be 1-1000)")
		}
		limit = int(n)
	}
	evs, err := s.store.EventsSince(r.Context(), since, limit)
	if err != nil {
		return err
	}
	if evs == nil {
		evs = []model.Event{}
	}
	writeJSON(w, http.StatusOK, evs)
	return nil
}

func parseSince(v string) (int64, error) {
	if v == "" {
		return 0, nil
	}
	n, err := parseDigits(v, 18)
	if err != nil {
		return 0, invalid("since 须为非负整数 (since must be a non-negative integer)")
	}
	return n, nil
}
