package peer

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"time"

	"jiaohao/model"
)

// Printing at a kiosk a number taken on a handheld: the staff page names
// the kiosk, the host stores the request with the ticket, and the kiosk
// named claims it here before it prints. A kiosk claims and lists only
// its own requests: the name it gives must be its token's.

type claimRequest struct {
	Kiosk string `json:"kiosk"`
}

func (q claimRequest) validate() error { return model.CheckTerminalName(q.Kiosk) }

// ownKiosk checks that the kiosk named is p itself: one kiosk never
// claims or lists another's prints.
func ownKiosk(p principal, name string) error {
	if name != p.Name {
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
// the one claim that wins, 409 once printed, 404 for a ticket that asks
// another kiosk, 403 for a token that is not the kiosk named.
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
	t, err := kp.ClaimPrint(r.Context(), id, p.Name)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, t)
	return nil
}

// pendingPrints is GET /api/v1/prints?kiosk=NAME: the kiosk's requests
// still to print today.
func (s *Server) pendingPrints(w http.ResponseWriter, r *http.Request, p principal) error {
	name := r.URL.Query().Get("kiosk")
	if err := ownKiosk(p, name); err != nil {
		return err
	}
	kp, err := s.kioskPrints()
	if err != nil {
		return err
	}
	ts, err := kp.PendingPrints(r.Context(), p.Name)
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

// staffKiosk is a kiosk as the staff page offers it: its name, never its
// token, and whether it is reachable now.
type staffKiosk struct {
	Name   string `json:"name"`
	Online bool   `json:"online"`
}

// staffKiosks is GET /staff/api/kiosks: the branch's kiosks that are
// still allowed in, by name. An offline kiosk still takes requests and
// prints them when it comes back.
func (s *Server) staffKiosks(w http.ResponseWriter, r *http.Request, _ principal) error {
	byName, err := s.kiosks(r.Context())
	if err != nil {
		return err
	}
	out := make([]staffKiosk, 0, len(byName))
	for name, on := range byName {
		out = append(out, staffKiosk{Name: name, Online: on})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	writeJSON(w, http.StatusOK, out)
	return nil
}

// kioskNamedOnline says whether the kiosk of that name is reachable now;
// false when it cannot be told.
func (s *Server) kioskNamedOnline(ctx context.Context, name string) bool {
	byName, err := s.kiosks(ctx)
	return err == nil && byName[name]
}

// kiosks are the kiosk terminals allowed in, by name, and whether each is
// online: its event stream is open, or it was seen lately.
func (s *Server) kiosks(ctx context.Context) (map[string]bool, error) {
	ts, err := s.terms.Terminals(ctx)
	if err != nil {
		return nil, err
	}
	now, err := s.store.Now(ctx)
	if err != nil {
		return nil, err
	}
	byName := map[string]bool{}
	for _, t := range ts {
		if t.Role == model.RoleKiosk && !t.Revoked {
			byName[t.Name] = byName[t.Name] || s.kioskOnline(t, now)
		}
	}
	return byName, nil
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
func (c *Client) ClaimPrint(ctx context.Context, id int64, kiosk string) (model.Ticket, error) {
	return c.ticket(ctx, http.MethodPost, "/api/v1/prints/"+strconv.FormatInt(id, 10)+"/claim", claimRequest{Kiosk: kiosk})
}

// PendingPrints lists this kiosk's requests still to print today.
func (c *Client) PendingPrints(ctx context.Context, kiosk string) ([]model.Ticket, error) {
	var ts []model.Ticket
	err := c.do(ctx, http.MethodGet, "/api/v1/prints?kiosk="+url.QueryEscape(kiosk), nil, &ts)
	return ts, err
}
