package peer

import (
	"net/http"
	"strings"

	"jiaohao/model"
)

// The clerks over the peer API (model.StaffDesk, model.StaffAdmin). A
// caller signs a clerk in and out at its own window only and reads that
// clerk's day; the manager manages the accounts. Passwords travel in the
// body only, never in a path or query, so no request log holds them.
// ("staff" on this server is also the floor handheld's page: these routes
// say clerks to keep the two apart.)

type (
	clerkSignInRequest struct {
		Number   string `json:"number"`
		Password string `json:"password"`
	}
	clerkRequest struct {
		Number   string   `json:"number"`
		Name     string   `json:"name"`
		Password string   `json:"password"`
		Services []string `json:"services"`
	}
	enabledRequest struct {
		Enabled bool `json:"enabled"`
	}
	passwordRequest struct {
		Password string `json:"password"`
	}
)

func (q clerkSignInRequest) validate() error {
	if err := model.CheckStaffNumber(strings.TrimSpace(q.Number)); err != nil {
		return err
	}
	if q.Password == "" || len(q.Password) > model.MaxPasswordLen {
		return invalid("请输入密码 (enter the password)")
	}
	return nil
}

func (q clerkRequest) validate() error {
	st := model.Staff{Number: strings.TrimSpace(q.Number), Name: strings.TrimSpace(q.Name)}
	if err := model.CheckStaff(st, q.Password); err != nil {
		return err
	}
	return model.CheckServiceList(q.Services)
}

func (enabledRequest) validate() error    { return nil }
func (q passwordRequest) validate() error { return model.CheckPassword(q.Password) }

func (s *Server) clerkRoutes() []route {
	return []route{
		{"POST", "/api/v1/windows/{n}/clerk", actors, s.signIn},
		{"DELETE", "/api/v1/windows/{n}/clerk", actors, s.signOut},
		{"GET", "/api/v1/windows/{n}/clerk/today", actors, s.clerkToday},
		{"GET", "/api/v1/clerks", managers, s.clerks},
		{"POST", "/api/v1/clerks", managers, s.addClerk},
		{"PUT", "/api/v1/clerks/{number}/enabled", managers, s.clerkEnabled},
		{"PUT", "/api/v1/clerks/{number}/services", managers, s.clerkServices},
		{"PUT", "/api/v1/clerks/{number}/password", managers, s.clerkPassword},
	}
}

func (s *Server) staffDesk() (model.StaffDesk, error) { return storeAs[model.StaffDesk](s) }

func (s *Server) staffAdmin() (model.StaffAdmin, error) { return storeAs[model.StaffAdmin](s) }

// storeAs is the server's store as one of the staff interfaces, or the
// sentence of a store that keeps no staff accounts.
func storeAs[T any](s *Server) (T, error) {
	v, ok := s.store.(T)
	if !ok {
		return v, model.Errorf(model.EUnavailable, "此网点服务器不保存员工账号 (this branch server keeps no staff accounts)")
	}
	return v, nil
}

func (s *Server) signIn(w http.ResponseWriter, r *http.Request, p principal) error {
	n, err := pathWindow(r, p)
	if err != nil {
		return err
	}
	q, err := decode[clerkSignInRequest](r, false)
	if err != nil {
		return err
	}
	d, err := s.staffDesk()
	if err != nil {
		return err
	}
	win, err := d.SignIn(r.Context(), n, strings.TrimSpace(q.Number), q.Password)
	return answer(w, win, err)
}

func (s *Server) signOut(w http.ResponseWriter, r *http.Request, p principal) error {
	d, n, err := s.deskAt(r, p)
	if err != nil {
		return err
	}
	win, err := d.SignOut(r.Context(), n)
	return answer(w, win, err)
}

func (s *Server) clerkToday(w http.ResponseWriter, r *http.Request, p principal) error {
	d, n, err := s.deskAt(r, p)
	if err != nil {
		return err
	}
	f, err := d.StaffToday(r.Context(), n)
	return answer(w, f, err)
}

// deskAt is the staff desk of the request's window, the one the token
// may act for.
func (s *Server) deskAt(r *http.Request, p principal) (model.StaffDesk, int, error) {
	n, err := pathWindow(r, p)
	if err != nil {
		return nil, 0, err
	}
	d, err := s.staffDesk()
	return d, n, err
}

func (s *Server) clerks(w http.ResponseWriter, r *http.Request, _ principal) error {
	a, err := s.staffAdmin()
	if err != nil {
		return err
	}
	list, err := a.StaffList(r.Context())
	return answer(w, list, err)
}

func (s *Server) addClerk(w http.ResponseWriter, r *http.Request, _ principal) error {
	q, err := decode[clerkRequest](r, false)
	if err != nil {
		return err
	}
	a, err := s.staffAdmin()
	if err != nil {
		return err
	}
	st, err := a.AddStaff(r.Context(), model.Staff{Number: q.Number, Name: q.Name, Services: q.Services}, q.Password)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, st)
	return nil
}

// clerkNumber is the staff number of the path, checked like the body's.
func clerkNumber(r *http.Request) (string, error) {
	n := r.PathValue("number")
	return n, model.CheckStaffNumber(n)
}

func (s *Server) clerkEnabled(w http.ResponseWriter, r *http.Request, _ principal) error {
	return s.clerkChange(w, r, func(a model.StaffAdmin, number string) (model.Staff, error) {
		q, err := decode[enabledRequest](r, false)
		if err != nil {
			return model.Staff{}, err
		}
		return a.SetStaffEnabled(r.Context(), number, q.Enabled)
	})
}

func (s *Server) clerkServices(w http.ResponseWriter, r *http.Request, _ principal) error {
	return s.clerkChange(w, r, func(a model.StaffAdmin, number string) (model.Staff, error) {
		q, err := decode[servicesRequest](r, false)
		if err != nil {
			return model.Staff{}, err
		}
		return a.SetStaffServices(r.Context(), number, q.Services)
	})
}

// clerkPassword answers no body: the store's reset returns no account,
// and a made-up one (enabled false, no services) would mislead a client.
func (s *Server) clerkPassword(w http.ResponseWriter, r *http.Request, _ principal) error {
	number, err := clerkNumber(r)
	if err != nil {
		return err
	}
	q, err := decode[passwordRequest](r, false)
	if err != nil {
		return err
	}
	a, err := s.staffAdmin()
	if err != nil {
		return err
	}
	if err := a.ResetStaffPassword(r.Context(), number, q.Password); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) clerkChange(w http.ResponseWriter, r *http.Request, fn func(model.StaffAdmin, string) (model.Staff, error)) error {
	number, err := clerkNumber(r)
	if err != nil {
		return err
	}
	a, err := s.staffAdmin()
	if err != nil {
		return err
	}
	st, err := fn(a, number)
	return answer(w, st, err)
}
