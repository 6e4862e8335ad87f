package peer

import (
	"context"
	"net/http"
	"net/url"

	"jiaohao/model"
)

var (
	_ model.StaffDesk  = (*Client)(nil)
	_ model.StaffAdmin = (*Client)(nil)
)

// SignIn signs a clerk in at the window through the host.
func (c *Client) SignIn(ctx context.Context, window int, number, password string) (model.Window, error) {
	var w model.Window
	return w, c.do(ctx, http.MethodPost, windowPath(window)+"/clerk", clerkSignInRequest{Number: number, Password: password}, &w)
}

// SignOut ends the window's sign-in.
func (c *Client) SignOut(ctx context.Context, window int) (model.Window, error) {
	var w model.Window
	return w, c.do(ctx, http.MethodDelete, windowPath(window)+"/clerk", nil, &w)
}

// StaffToday is the signed-in clerk's day.
func (c *Client) StaffToday(ctx context.Context, window int) (model.StaffFigures, error) {
	var f model.StaffFigures
	return f, c.do(ctx, http.MethodGet, windowPath(window)+"/clerk/today", nil, &f)
}

func (c *Client) StaffList(ctx context.Context) ([]model.Staff, error) {
	var out []model.Staff
	return out, c.do(ctx, http.MethodGet, "/api/v1/clerks", nil, &out)
}

func (c *Client) AddStaff(ctx context.Context, s model.Staff, password string) (model.Staff, error) {
	var out model.Staff
	in := clerkRequest{Number: s.Number, Name: s.Name, Password: password, Services: s.Services}
	if in.Services == nil {
		in.Services = []string{}
	}
	return out, c.do(ctx, http.MethodPost, "/api/v1/clerks", in, &out)
}

func clerkPath(number string) string { return "/api/v1/clerks/" + url.PathEscape(number) }

func (c *Client) SetStaffEnabled(ctx context.Context, number string, enabled bool) (model.Staff, error) {
	var out model.Staff
	return out, c.do(ctx, http.MethodPut, clerkPath(number)+"/enabled", enabledRequest{Enabled: enabled}, &out)
}

func (c *Client) SetStaffServices(ctx context.Context, number string, services []string) (model.Staff, error) {
	var out model.Staff
	if services == nil {
		services = []string{}
	}
	return out, c.do(ctx, http.MethodPut, clerkPath(number)+"/services", servicesRequest{Services: services}, &out)
}

func (c *Client) ResetStaffPassword(ctx context.Context, number, password string) error {
	return c.do(ctx, http.MethodPut, clerkPath(number)+"/password", passwordRequest{Password: password}, nil)
}
