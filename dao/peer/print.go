package peer

import (
	"context"
	"net/http"
	"sort"
	"strconv"
	"time"

	"jiaohao/model"
)

// Printing at a kiosk a number taken on a handheld: the staff page
// chooses the kiosk (by terminal id: names may repeat), the host stores
// the request with the ticket, and that kiosk claims it here before it
// prints. A kiosk claims and lists only its own requests: the id it gives
// must be its token's.

type claimRequest struct {
	Kiosk int64  `json:"kiosk"`
	Claim string `json:"claim"`
}

func (q claimRequest) validate() error {
	if q.Claim == "" || len(q.Claim) > 40 {
		return invalid("打印认领须带 1 到 40 个字符的标记 (a claim needs a mark of 1 to 40 characters)")
	}
	return model.CheckText("打印认领标记", "claim mark", q.Claim, false)
}

// ownKiosk checks that the kiosk terminal id is p itself: one kiosk
// never claims or lists another's prints.
func ownKiosk(p principal, id int64) error {
	if id != p.ID {
		return errForbidden
	}
	return nil
}

func (s *Server) kioskPrints() (model.KioskPrints, error) {
	kp, ok := s.store.(model.KioskPrints)
	if !ok {
		return nil, model.Errorf(model.EUnavailable, "此网点的数据库不支持取号机代打 (this branch's store cannot print at a kiosk)")
	}
	return kp, nil
}

// claimPrint is POST /api/v1/prints/{id}/claim: 200 with the ticket for
// the one claim that wins, 409 conflict once accepted, 409
// invalid_transition for a ticket no longer in line, 404 for a ticket
// that asks another kiosk, 403 for a token that is not the kiosk named.
func (s *Server) claimPrint(w http.ResponseWriter, r *http.Request, p principal) error {
	id, err := parseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	q, err := decode[claimRequest](r, false)
	if err != nil {
		return err
	}
	if err := ownKiosk(p, q.Kiosk); err != nil {
		return err
	}
	kp, err := s.kioskPrints()
	if err != nil {
		return err
	}
	t, err := kp.ClaimPrint(r.Context(), id, p.ID, q.Claim)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, t)
	return nil
}

// pendingPrints is GET /api/v1/prints?kiosk=ID: the kiosk's requests
// still to print today.
func (s *Server) pendingPrints(w http.ResponseWriter, r *http.Request, p principal) error {
	id, err := strconv.ParseInt(r.URL.Query().Get("kiosk"), 10, 64)
	if err != nil {
		return invalid("请给出取号机编号 (give the kiosk's terminal id)")
	}
	if err := ownKiosk(p, id); err != nil {
		return err
	}
	kp, err := s.kioskPrints()
	if err != nil {
		return err
	}
	ts, err := kp.PendingPrints(r.Context(), p.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ts)
	return nil
}

// kioskOffline is how long a kiosk may go unseen before the staff page
// says it is offline. A kiosk that follows the queue is seen at least
// once a minute (its clock heartbeat authenticates).
const kioskOffline = 3 * time.Minute

// staffKiosk is a kiosk as the staff page offers it: its terminal id (what
// a take names), its name, never its token, and whether it is reachable
// now.
type staffKiosk struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Online bool   `json:"online"`
}

// staffKiosks is GET /staff/api/kiosks: the branch's kiosks that are
// still allowed in, by name and then id. An offline kiosk still takes
// requests and prints them when it comes back.
func (s *Server) staffKiosks(w http.ResponseWriter, r *http.Request, _ principal) error {
	out, err := s.kiosks(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// kioskOnlineByID says whether the kiosk terminal id is reachable now;
// false when it cannot be told.
func (s *Server) kioskOnlineByID(ctx context.Context, id int64) bool {
	ks, err := s.kiosks(ctx)
	if err != nil {
		return false
	}
	for _, k := range ks {
		if k.ID == id {
			return k.Online
		}
	}
	return false
}

// kiosks are the kiosk terminals allowed in and whether each is online:
// its event stream is open, or it was seen lately.
func (s *Server) kiosks(ctx context.Context) ([]staffKiosk, error) {
	ts, err := s.terms.Terminals(ctx)
	if err != nil {
		return nil, err
	}
	now, err := s.store.Now(ctx)
	if err != nil {
		return nil, err
	}
	out := []staffKiosk{}
	for _, t := range ts {
		if t.Role == model.RoleKiosk && !t.Revoked {
			out = append(out, staffKiosk{ID: t.ID, Name: t.Name, Online: s.kioskOnline(t, now)})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// kioskOnline: a live event stream, or a recent sighting by this server
// (its own clock) or in the terminal table (the database clock, now).
func (s *Server) kioskOnline(t model.Terminal, now time.Time) bool {
	s.streamsMu.Lock()
	streaming := len(s.streams[t.ID]) > 0
	s.streamsMu.Unlock()
	s.seenMu.Lock()
	seen, ok := s.seen[t.ID]
	s.seenMu.Unlock()
	return streaming || ok && time.Since(seen) < kioskOffline || t.LastSeen != nil && now.Sub(*t.LastSeen) < kioskOffline
}

var _ model.KioskPrints = (*Client)(nil)

// ClaimPrint claims a print request of this kiosk on the host.
func (c *Client) ClaimPrint(ctx context.Context, id, kiosk int64, claim string) (model.Ticket, error) {
	return c.ticket(ctx, http.MethodPost, "/api/v1/prints/"+strconv.FormatInt(id, 10)+"/claim", claimRequest{Kiosk: kiosk, Claim: claim})
}

// PendingPrints lists this kiosk's requests still to print today.
func (c *Client) PendingPrints(ctx context.Context, kiosk int64) ([]model.Ticket, error) {
	var ts []model.Ticket
	err := c.do(ctx, http.MethodGet, "/api/v1/prints?kiosk="+strconv.FormatInt(kiosk, 10), nil, &ts)
	return ts, err
}
