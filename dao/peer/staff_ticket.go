package peer

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/skip2/go-qrcode"

	"jiaohao/model"
)

// staffTicket is a ticket as the handheld shows it: where it stands, and
// the customer page its QR code opens.
type staffTicket struct {
	Ticket
	CustomerURL string `json:"customer_url"`
	// KioskOnline, on a take sent to a kiosk to print, says whether that
	// kiosk is reachable now; an offline one prints when it is back.
	KioskOnline *bool `json:"kiosk_online,omitempty"`
}

// customerBase is where a customer's phone finds the customer page: the
// customer_url setting, or else the address the handheld reached the
// host by (the phones share the branch Wi-Fi).
func (s *Server) customerBase(ctx context.Context, r *http.Request) string {
	if st, err := s.store.Settings(ctx); err == nil {
		if base := strings.TrimSpace(st.Raw["customer_url"]); base != "" {
			return base
		}
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return (&url.URL{Scheme: scheme, Host: r.Host}).String()
}

func (s *Server) answerStaff(w http.ResponseWriter, r *http.Request, status int, t model.Ticket, err error) error {
	if err != nil {
		return err
	}
	out := staffTicket{Ticket: s.ticketOut(r.Context(), t), CustomerURL: model.CustomerURL(s.customerBase(r.Context(), r), t.PublicID)}
	writeJSON(w, status, out)
	return nil
}

// staffTake is POST /staff/api/tickets: a number for a customer, recorded
// as taken on a handheld. A priority is VIP and only while VIP is on. A
// take sent again with the same request_id (its answer was lost on the
// Wi-Fi) answers the number the first one took instead of a second one.
func (s *Server) staffTake(w http.ResponseWriter, r *http.Request, p principal) error {
	q, err := decode[staffTakeRequest](r, false)
	if err != nil {
		return err
	}
	if q.Priority != 0 {
		st, err := s.store.Settings(r.Context())
		if err != nil {
			return err
		}
		if !st.VIPEnabled {
			return invalid("本网点未开通 VIP 取号 (VIP numbers are turned off)")
		}
	}
	sess, _ := r.Context().Value(sessionKey{}).(*staffSession)
	t, repeat, err := sess.takeOnce(r.Context(), q, s.opts.StaffClock(), func() (model.Ticket, error) { return s.staffTakeNew(r.Context(), q, p) })
	if err != nil {
		return err
	}
	if repeat { // as it stands now: called already, or printed at the kiosk
		if now, err := s.store.Ticket(r.Context(), t.ID); err == nil {
			t = now
		}
	}
	out := staffTicket{Ticket: s.ticketOut(r.Context(), t), CustomerURL: model.CustomerURL(s.customerBase(r.Context(), r), t.PublicID)}
	if t.PrintKiosk != 0 {
		online := s.kioskOnlineByID(r.Context(), t.PrintKiosk)
		out.KioskOnline = &online
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// staffTakeNew takes a new number, within the token's rate.
func (s *Server) staffTakeNew(ctx context.Context, q staffTakeRequest, p principal) (model.Ticket, error) {
	if !s.takes.allow(p.ID, time.Now()) {
		return model.Ticket{}, model.Errorf(model.ERateLimited, "取号过于频繁，请稍后再试 (too many numbers taken; try again shortly)")
	}
	if q.Kiosk == 0 {
		return s.store.TakeTicket(ctx, q.Service, q.Priority, p.Role.TicketSource())
	}
	req, ok := s.store.(model.KioskPrintRequests)
	if !ok {
		return model.Ticket{}, model.Errorf(model.EUnavailable, "此网点的数据库不支持取号机代打 (this branch's store cannot print at a kiosk)")
	}
	return req.TakeTicketPrintAt(ctx, q.Service, q.Priority, p.Role.TicketSource(), q.Kiosk)
}

// staffTakeRequest is a take on the handheld: a number, optionally the
// kiosk (by its terminal id, as the kiosk list gives it) that prints the
// ticket for the customer to pick up, and the page's random id for this
// take (request_id).
type staffTakeRequest struct {
	Service   string `json:"service"`
	Priority  int    `json:"priority"`
	Kiosk     int64  `json:"kiosk"`
	RequestID string `json:"request_id"`
}

func (q staffTakeRequest) validate() error {
	if err := (takeRequest{Service: q.Service, Priority: q.Priority}).validate(); err != nil {
		return err
	}
	if !validRequestID(q.RequestID) {
		return invalid("取号请求编号无效 (request_id must be 16 to 64 letters, digits, - or _)")
	}
	if q.Kiosk < 0 {
		return invalid("取号机编号无效 (no such kiosk)")
	}
	return nil
}

// staffLookup is GET /staff/api/lookup?number=A012: today's ticket of
// that number, with its place in line while it waits.
func (s *Server) staffLookup(w http.ResponseWriter, r *http.Request, _ principal) error {
	number := r.URL.Query().Get("number")
	if _, _, ok := model.ParseNumber(number); !ok {
		return invalid("请输入号码，例如 A012 (enter a number such as A012)")
	}
	find, ok := s.store.(model.TicketFinder)
	if !ok {
		return model.Errorf(model.EUnavailable, "此网点的数据库不支持按号码查询 (this branch's store cannot look numbers up)")
	}
	t, err := find.TicketByNumber(r.Context(), number)
	if err != nil {
		return err
	}
	snap, err := s.snaps.get(r.Context())
	if err != nil {
		return err
	}
	if t.BusinessDate != snap.BusinessDate {
		return model.Errorf(model.ENotFound, "今天没有号码 %s (no such number today)", strings.ToUpper(strings.TrimSpace(number)))
	}
	return s.answerStaff(w, r, http.StatusOK, t, nil)
}

// staffAct is POST /staff/api/tickets/{id}/requeue or /cancel, as the
// floor: a passed ticket of today only, whichever window passed it. The
// model refuses another day's ticket inside the store's transaction; the
// check here answers first, with the same code, the way lookup does.
func (s *Server) staffAct(w http.ResponseWriter, r *http.Request, _ principal) error {
	id, err := parseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	if _, err := decode[emptyRequest](r, true); err != nil {
		return err
	}
	action := r.PathValue("action")
	if action != "requeue" && action != "cancel" {
		return model.Errorf(model.ENotFound, "没有这个操作 (no such action)")
	}
	cur, err := s.store.Ticket(r.Context(), id)
	if err != nil {
		return err
	}
	snap, err := s.snaps.get(r.Context())
	if err != nil {
		return err
	}
	if cur.BusinessDate != snap.BusinessDate {
		return model.Errorf(model.EOtherDay, "号码 %s 是 %s 的号码，只能处理今天的过号 (only today's passed numbers can be requeued or cancelled)", cur.Number, cur.BusinessDate)
	}
	var t model.Ticket
	if action == "requeue" {
		t, err = s.store.Requeue(r.Context(), id, model.FloorWindow)
	} else {
		t, err = s.store.Cancel(r.Context(), id, model.FloorWindow)
	}
	return s.answerStaff(w, r, http.StatusOK, t, err)
}

// emptyRequest is a change that carries nothing but its path.
type emptyRequest struct{}

func (emptyRequest) validate() error { return nil }

// staffQR is GET /staff/api/tickets/{id}/qr.png: the customer page's QR
// code, for the customer's phone to scan off the handheld's screen.
func (s *Server) staffQR(w http.ResponseWriter, r *http.Request, _ principal) error {
	id, err := parseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	t, err := s.store.Ticket(r.Context(), id)
	if err != nil {
		return err
	}
	png, err := qrcode.Encode(model.CustomerURL(s.customerBase(r.Context(), r), t.PublicID), qrcode.Medium, 320)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(png)
	return nil
}
