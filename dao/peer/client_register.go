package peer

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"jiaohao/model"
)

var (
	_ model.CustomerRegister = (*Client)(nil)
	_ model.CustomerDesk     = (*Client)(nil)
	_ model.WindowCustomers  = (*Client)(nil)
)

// Customers searches the host's register; the query travels in the body,
// since it may be an ID or card number.
func (c *Client) Customers(ctx context.Context, query string, limit int) ([]model.Customer, error) {
	var out []model.Customer
	return out, c.do(ctx, http.MethodPost, "/api/v1/customers/search", customerSearchRequest{Query: query, Limit: limit}, &out)
}

// SaveCustomer adds (ID 0) or edits a customer on the host.
func (c *Client) SaveCustomer(ctx context.Context, in model.CustomerInput) (model.Customer, error) {
	var out model.Customer
	if in.ID == 0 {
		return out, c.do(ctx, http.MethodPost, "/api/v1/customers", customerBody(in), &out)
	}
	return out, c.do(ctx, http.MethodPut, "/api/v1/customers/"+strconv.FormatInt(in.ID, 10), customerBody(in), &out)
}

// ImportCustomers sends the whole file's rows at once: the host writes
// all or none.
func (c *Client) ImportCustomers(ctx context.Context, rows []model.CustomerInput) (model.ImportResult, error) {
	var out model.ImportResult
	if rows == nil {
		rows = []model.CustomerInput{}
	}
	return out, c.doWithin(ctx, ReportTimeout+30*time.Second, http.MethodPost, "/api/v1/customers/import", customerImportRequest{Rows: rows}, &out)
}

func (c *Client) CustomerLevels(ctx context.Context) ([]model.CustomerLevel, error) {
	var out []model.CustomerLevel
	return out, c.do(ctx, http.MethodGet, "/api/v1/customer-levels", nil, &out)
}

func (c *Client) SaveCustomerLevel(ctx context.Context, l model.CustomerLevel) (model.CustomerLevel, error) {
	var out model.CustomerLevel
	body := levelRequest{Name: l.Name, Priority: l.Priority, Service: l.Service, SortOrder: l.SortOrder}
	if l.ID == 0 {
		return out, c.do(ctx, http.MethodPost, "/api/v1/customer-levels", body, &out)
	}
	return out, c.do(ctx, http.MethodPut, "/api/v1/customer-levels/"+strconv.FormatInt(l.ID, 10), body, &out)
}

// IdentifyCustomer asks the host who the number or phone belongs to; the
// number travels in the body.
func (c *Client) IdentifyCustomer(ctx context.Context, key string) (model.CustomerMatch, error) {
	var out model.CustomerMatch
	return out, c.do(ctx, http.MethodPost, "/api/v1/customers/identify", customerKeyRequest{Key: key}, &out)
}

// TakeTicketFor takes a number for an identified customer; the host sets
// the source from this PC's role.
func (c *Client) TakeTicketFor(ctx context.Context, service string, customer int64, _ string) (model.Ticket, error) {
	return c.take(ctx, "/api/v1/customer-tickets", customerTakeRequest{Service: service, Customer: customer})
}

// WindowCustomer is who the window's ticket is for.
func (c *Client) WindowCustomer(ctx context.Context, window int) (model.CustomerCard, error) {
	var out model.CustomerCard
	return out, c.do(ctx, http.MethodGet, windowPath(window)+"/customer", nil, &out)
}
