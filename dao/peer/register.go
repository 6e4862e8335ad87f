package peer

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	"jiaohao/model"
)

// The customer register over the peer API (model.CustomerRegister,
// model.CustomerDesk, model.WindowCustomers). The manager keeps the
// register; a PC that takes numbers identifies a customer and learns the
// level and a masked name only, never the phone or the numbers; a caller
// reads the name and level of its own window's ticket. ID and card
// numbers travel in bodies only, never in a path or query a request log
// would keep. (The customer's phone page, /t/{pid}, is customer.go.)

type (
	customerKeyRequest struct {
		Key string `json:"key"`
	}
	customerTakeRequest struct {
		Service  string `json:"service"`
		Customer int64  `json:"customer"`
	}
	customerImportRequest struct {
		Rows []model.CustomerInput `json:"rows"`
	}
)

func (q customerKeyRequest) validate() error {
	if len(q.Key) > 40 {
		return invalid("号码过长 (the number is too long)")
	}
	_, err := model.ClassifyKey(model.NormalizeKey(q.Key))
	return err
}

func (q customerTakeRequest) validate() error {
	if q.Service != "" {
		if err := model.CheckServiceCode(q.Service); err != nil {
			return err
		}
	}
	if q.Customer <= 0 {
		return invalid("缺少客户 (customer required)")
	}
	return nil
}

func (q customerImportRequest) validate() error {
	if len(q.Rows) > model.MaxImportRows {
		return invalid("一次最多导入 %d 行 (at most %d rows at once)", model.MaxImportRows, model.MaxImportRows)
	}
	return nil
}

// maxImportBody is an import's body: MaxImportRows rows of a few hundred
// bytes each.
const maxImportBody = 8 << 20

func (s *Server) registerRoutes() []route {
	return []route{
		{"POST", "/api/v1/customers/search", managers, s.customers},
		{"POST", "/api/v1/customers", managers, s.saveCustomer},
		{"PUT", "/api/v1/customers/{id}", managers, s.saveCustomer},
		{"POST", "/api/v1/customers/import", managers, s.importCustomers},
		{"GET", "/api/v1/customer-levels", managers, s.customerLevels},
		{"POST", "/api/v1/customer-levels", managers, s.saveCustomerLevel},
		{"PUT", "/api/v1/customer-levels/{id}", managers, s.saveCustomerLevel},
		{"POST", "/api/v1/customers/identify", takers, s.identifyCustomer},
		{"POST", "/api/v1/customer-tickets", takers, s.takeForCustomer},
		{"GET", "/api/v1/windows/{n}/customer", actors, s.windowCustomer},
	}
}

func noRegister() error {
	return model.Errorf(model.EUnavailable, "此网点服务器不保存客户信息 (this branch server keeps no customer register)")
}

func (s *Server) register() (model.CustomerRegister, error) {
	if v, ok := s.store.(model.CustomerRegister); ok {
		return v, nil
	}
	return nil, noRegister()
}

func (s *Server) customerDesk() (model.CustomerDesk, error) {
	if v, ok := s.store.(model.CustomerDesk); ok {
		return v, nil
	}
	return nil, noRegister()
}

// customers searches by a body, not a query string: the query may be an
// ID or card number, and a URL ends up in logs.
func (s *Server) customers(w http.ResponseWriter, r *http.Request, _ principal) error {
	q, err := decode[customerSearchRequest](r, true)
	if err != nil {
		return err
	}
	reg, err := s.register()
	if err != nil {
		return err
	}
	list, err := reg.Customers(r.Context(), q.Query, q.Limit)
	return answer(w, list, err)
}

type customerSearchRequest struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

func (q customerSearchRequest) validate() error {
	if len(q.Query) > 40 {
		return invalid("查询过长 (the query is too long)")
	}
	if q.Limit < 0 || q.Limit > 500 {
		return invalid("limit 须为 0 到 500 (limit must be 0-500)")
	}
	return nil
}

func (s *Server) saveCustomer(w http.ResponseWriter, r *http.Request, _ principal) error {
	q, err := decode[customerRequest](r, false)
	if err != nil {
		return err
	}
	in := model.CustomerInput{
		Customer: model.Customer{Number: q.Number, Name: q.Name, Phone: q.Phone, Level: q.Level, Note: q.Note, Enabled: q.Enabled},
		IDNumber: q.IDNumber, CardNumber: q.CardNumber, ClearID: q.ClearID, ClearCard: q.ClearCard,
	}
	status := http.StatusCreated
	if id := r.PathValue("id"); id != "" {
		if in.ID, err = parseID(id); err != nil {
			return err
		}
		status = http.StatusOK
	}
	reg, err := s.register()
	if err != nil {
		return err
	}
	c, err := reg.SaveCustomer(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, status, c)
	return nil
}

// customerRequest is a customer to save as its body carries it; the
// store checks every field, with the sentence of each rule.
type customerRequest struct {
	Number     string `json:"number"`
	Name       string `json:"name"`
	Phone      string `json:"phone"`
	Level      string `json:"level"`
	Note       string `json:"note"`
	Enabled    bool   `json:"enabled"`
	IDNumber   string `json:"id_number"`
	CardNumber string `json:"card_number"`
	ClearID    bool   `json:"clear_id"`
	ClearCard  bool   `json:"clear_card"`
}

func (q customerRequest) validate() error {
	if len(q.Number)+len(q.Name)+len(q.Phone)+len(q.Level)+len(q.IDNumber)+len(q.CardNumber) > 400 || len(q.Note) > 4*model.MaxCustomerNoteLen {
		return invalid("客户信息过长 (the customer's fields are too long)")
	}
	return nil
}

func customerBody(c model.CustomerInput) customerRequest {
	return customerRequest{Number: c.Number, Name: c.Name, Phone: c.Phone, Level: c.Level, Note: c.Note, Enabled: c.Enabled,
		IDNumber: c.IDNumber, CardNumber: c.CardNumber, ClearID: c.ClearID, ClearCard: c.ClearCard}
}

// importCustomers reads a larger body than other routes (a whole
// register) and has the report's time bound.
func (s *Server) importCustomers(w http.ResponseWriter, r *http.Request, _ principal) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxImportBody+1))
	if err != nil {
		return invalid("请求内容读取失败 (could not read the request body)")
	}
	if len(body) > maxImportBody {
		return invalid("导入内容超过 %d MiB，未导入 (the import is over %d MiB; nothing imported)", maxImportBody>>20, maxImportBody>>20)
	}
	var q customerImportRequest
	if err := decodeStrict(body, &q, false); err != nil {
		return err
	}
	if err := q.validate(); err != nil {
		return err
	}
	reg, err := s.register()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), ReportTimeout)
	defer cancel()
	res, err := reg.ImportCustomers(ctx, q.Rows)
	return answer(w, res, err)
}

func (s *Server) customerLevels(w http.ResponseWriter, r *http.Request, _ principal) error {
	reg, err := s.register()
	if err != nil {
		return err
	}
	list, err := reg.CustomerLevels(r.Context())
	return answer(w, list, err)
}

type levelRequest struct {
	Name      string `json:"name"`
	Priority  int    `json:"priority"`
	Service   string `json:"service"`
	SortOrder int    `json:"sort_order"`
}

func (q levelRequest) validate() error {
	_, err := model.CheckCustomerLevel(model.CustomerLevel{Name: q.Name, Priority: q.Priority, Service: q.Service, SortOrder: q.SortOrder})
	return err
}

func (s *Server) saveCustomerLevel(w http.ResponseWriter, r *http.Request, _ principal) error {
	q, err := decode[levelRequest](r, false)
	if err != nil {
		return err
	}
	l := model.CustomerLevel{Name: q.Name, Priority: q.Priority, Service: q.Service, SortOrder: q.SortOrder}
	if id := r.PathValue("id"); id != "" {
		if l.ID, err = parseID(id); err != nil {
			return err
		}
	}
	reg, err := s.register()
	if err != nil {
		return err
	}
	out, err := reg.SaveCustomerLevel(r.Context(), l)
	return answer(w, out, err)
}

// identifyCustomer has take's limit per token: an answer says whether a
// phone number is a customer's, their level and surname, so a PC must not
// run through a list of numbers.
func (s *Server) identifyCustomer(w http.ResponseWriter, r *http.Request, p principal) error {
	q, err := decode[customerKeyRequest](r, false)
	if err != nil {
		return err
	}
	if !s.idents.allow(p.ID, time.Now()) {
		return model.Errorf(model.ERateLimited, "查询过于频繁，请稍后再试 (too many lookups; try again shortly)")
	}
	d, err := s.customerDesk()
	if err != nil {
		return err
	}
	m, err := d.IdentifyCustomer(r.Context(), q.Key)
	return answer(w, m, err)
}

// takeForCustomer is take's twin: the same rate limit, the source from
// the token's role.
func (s *Server) takeForCustomer(w http.ResponseWriter, r *http.Request, p principal) error {
	q, err := decode[customerTakeRequest](r, false)
	if err != nil {
		return err
	}
	if !s.takes.allow(p.ID, time.Now()) {
		return model.Errorf(model.ERateLimited, "取号过于频繁，请稍后再试 (too many numbers taken; try again shortly)")
	}
	d, err := s.customerDesk()
	if err != nil {
		return err
	}
	t, err := d.TakeTicketFor(r.Context(), strings.TrimSpace(q.Service), q.Customer, p.Role.TicketSource())
	return s.answerTaken(w, r, t, err)
}

func (s *Server) windowCustomer(w http.ResponseWriter, r *http.Request, p principal) error {
	n, err := pathWindow(r, p)
	if err != nil {
		return err
	}
	v, ok := s.store.(model.WindowCustomers)
	if !ok {
		return noRegister()
	}
	c, err := v.WindowCustomer(r.Context(), n)
	return answer(w, c, err)
}
