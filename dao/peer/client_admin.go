package peer

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"jiaohao/model"
)

func windowPath(n int) string { return "/api/v1/windows/" + strconv.Itoa(n) }

func (c *Client) SetWindowStatus(ctx context.Context, window int, status model.WindowStatus) (model.Window, error) {
	var w model.Window
	return w, c.do(ctx, http.MethodPut, windowPath(window)+"/status", statusRequest{Status: status.String()}, &w)
}

func (c *Client) SetWindowServices(ctx context.Context, window int, services []string) (model.Window, error) {
	var w model.Window
	if services == nil {
		services = []string{}
	}
	return w, c.do(ctx, http.MethodPut, windowPath(window)+"/services", servicesRequest{Services: services}, &w)
}

// SwitchServices is the clerk's switch: the host keeps it to the services
// the manager allowed the window, whatever this client's token.
func (c *Client) SwitchServices(ctx context.Context, window int, services []string) (model.Window, error) {
	var w model.Window
	if services == nil {
		services = []string{}
	}
	return w, c.do(ctx, http.MethodPut, windowPath(window)+"/services", servicesRequest{Services: services, AllowedOnly: true}, &w)
}

func (c *Client) Windows(ctx context.Context) ([]model.Window, error) {
	var ws []model.Window
	return ws, c.do(ctx, http.MethodGet, "/api/v1/windows", nil, &ws)
}

func (c *Client) SaveWindow(ctx context.Context, w model.Window) (model.Window, error) {
	in := windowRequest{Name: w.Name, Services: w.Services}
	if w.Allowed != nil {
		in.Allowed = &w.Allowed
	}
	if st := w.Status.String(); st != "unknown" {
		in.Status = st
	}
	if in.Services == nil {
		in.Services = []string{}
	}
	var out model.Window
	return out, c.do(ctx, http.MethodPut, windowPath(w.Number), in, &out)
}

func (c *Client) Services(ctx context.Context) ([]model.Service, error) {
	var ss []model.Service
	return ss, c.do(ctx, http.MethodGet, "/api/v1/services", nil, &ss)
}

func (c *Client) SaveService(ctx context.Context, s model.Service) (model.Service, error) {
	in := serviceRequest{Name: s.Name, Priority: s.Priority, StartNo: s.StartNo, Width: s.Width,
		Enabled: s.Enabled, SortOrder: s.SortOrder, Area: s.Area}
	var out model.Service
	return out, c.do(ctx, http.MethodPut, "/api/v1/services/"+url.PathEscape(s.Code), in, &out)
}

func (c *Client) Settings(ctx context.Context) (model.Settings, error) {
	var raw map[string]string
	if err := c.do(ctx, http.MethodGet, "/api/v1/settings", nil, &raw); err != nil {
		return model.Settings{}, err
	}
	return model.ParseSettings(raw), nil
}

func (c *Client) SetSetting(ctx context.Context, key, value string) error {
	return c.do(ctx, http.MethodPut, "/api/v1/settings/"+url.PathEscape(key), settingRequest{Value: value}, nil)
}

func (c *Client) ReportDevice(ctx context.Context, kind, fault string) error {
	return c.do(ctx, http.MethodPost, "/api/v1/devices", deviceRequest{Kind: kind, Fault: fault}, nil)
}

func (c *Client) Snapshot(ctx context.Context) (model.Snapshot, error) {
	var s model.Snapshot
	return s, c.do(ctx, http.MethodGet, "/api/v1/snapshot", nil, &s)
}

func (c *Client) EventsSince(ctx context.Context, since int64, limit int) ([]model.Event, error) {
	limit = min(max(limit, 1), 1000)
	var evs []model.Event
	path := "/api/v1/eventlog?since=" + strconv.FormatInt(max(since, 0), 10) + "&limit=" + strconv.Itoa(limit)
	return evs, c.do(ctx, http.MethodGet, path, nil, &evs)
}

func (c *Client) Sweep(ctx context.Context) (model.SweepResult, error) {
	var r model.SweepResult
	return r, c.do(ctx, http.MethodPost, "/api/v1/sweep", nil, &r)
}

func (c *Client) Now(ctx context.Context) (time.Time, error) {
	var v struct {
		Now time.Time `json:"now"`
	}
	return v.Now, c.do(ctx, http.MethodGet, "/api/v1/time", nil, &v)
}

// Whoami asks the server which terminal the token belongs to; it also
// learns the server's database engine.
func (c *Client) Whoami(ctx context.Context) (Whoami, error) {
	var w Whoami
	if err := c.do(ctx, http.MethodGet, "/api/v1/whoami", nil, &w); err != nil {
		return w, err
	}
	c.mu.Lock()
	c.engine = w.Engine
	c.mu.Unlock()
	return w, nil
}

// Engine is the server's database engine, as last learned (empty before
// the first successful contact).
func (c *Client) Engine() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.engine
}

// Close stops every Watch; the server and its store stay up.
func (c *Client) Close() error {
	c.cancel()
	c.hc.CloseIdleConnections()
	return nil
}
