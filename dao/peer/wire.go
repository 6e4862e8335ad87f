// Package peer is the second adapter of the model's ports, beside the SQL
// one: the HTTP/JSON and WebSocket server that lets one PC host a branch's
// queue (over any model.Store) for every other PC on the LAN, the client
// that implements model.Store over that server, bearer-token
// authentication by the role table, and the customer page that shows one
// ticket live. It links no database driver.
//
// The wire contract (paths, JSON fields, status codes) is stable: kiosks,
// screens and outside tools rely on it. Change it only by adding fields, or
// under a new /api/vN prefix.
package peer

import (
	"encoding/json"
	"errors"
	"net/http"

	"jiaohao/model"
)

// Ticket is a ticket on the wire: the stored ticket plus where it stands
// while it waits.
type Ticket struct {
	model.Ticket
	Ahead      int  `json:"ahead"`
	ETASeconds int  `json:"eta_s"`
	NoWindow   bool `json:"no_window,omitempty"` // no open window serves it now: eta_s is no wait to show
}

// errorBody is every error response: a stable code and one sentence.
type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// message is one WebSocket message of /api/v1/events: an event, or a
// resync notice telling the subscriber to reload the snapshot.
type message struct {
	Type string `json:"type"` // "event" or "resync"
	model.Event
}

const (
	msgEvent  = "event"
	msgResync = "resync"
)

// httpStatus maps a domain code to the status the contract promises.
func httpStatus(code string) int {
	switch code {
	case model.EInvalidInput, model.ELowContrast, model.EBadPhone, model.EBadIDNumber, model.EUnknownLevel:
		return http.StatusBadRequest
	case model.EUnauthorized:
		return http.StatusUnauthorized
	case model.EForbidden:
		return http.StatusForbidden
	case model.ENotFound, model.EQueueEmpty, model.ECustomerNotFound:
		return http.StatusNotFound
	case model.EInvalidTransition, model.EConflict, model.EOtherDay, model.EAreaNotEmpty, model.ECustomerTaken,
		model.EAlreadyRated, model.ERatingExpired, model.ETicketNotDone:
		return http.StatusConflict
	case model.EWindowNotOpen, model.EWindowNotServing, model.EWrongPassword, model.EStaffDisabled:
		return http.StatusUnprocessableEntity
	case model.ERateLimited, model.EStaffLocked:
		return http.StatusTooManyRequests
	case model.EUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// codeForStatus is the inverse for responses that carry no usable body
// (a proxy's error page, say).
func codeForStatus(status int) string {
	switch status {
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		return model.EInvalidInput
	case http.StatusUnauthorized:
		return model.EUnauthorized
	case http.StatusForbidden:
		return model.EForbidden
	case http.StatusNotFound:
		return model.ENotFound
	case http.StatusConflict:
		return model.EConflict
	case http.StatusTooManyRequests:
		return model.ERateLimited
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return model.EUnavailable
	}
	return model.EInternal
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers with the error's code; internal errors get a generic
// sentence so database details never leave the server. Every 429 and 503
// says when to try again (a handler may have set a longer wait).
func writeError(w http.ResponseWriter, err error) {
	code := model.ErrorCode(err)
	if cw, ok := w.(interface{ setCode(string) }); ok {
		cw.setCode(code) // for the request log
	}
	status := httpStatus(code)
	if w.Header().Get("Retry-After") == "" {
		switch status {
		case http.StatusTooManyRequests:
			w.Header().Set("Retry-After", "2")
		case http.StatusServiceUnavailable:
			w.Header().Set("Retry-After", retryUnavailable)
		}
	}
	writeJSON(w, status, errorBody{Code: code, Message: model.ErrorMessage(err)})
}

// retryUnavailable is the Retry-After of a 503, in seconds: long enough
// for a queue of waiting requests to drain or a database to come back,
// short enough that a kiosk is not idle for long.
const retryUnavailable = "3"

// decodeError turns a response's error body back into the domain error.
func decodeError(status int, body []byte) error {
	var e errorBody
	if json.Unmarshal(body, &e) == nil && e.Code != "" {
		return &model.Error{Code: e.Code, Message: e.Message}
	}
	code := codeForStatus(status)
	if code == model.EUnavailable {
		return errUnreachable
	}
	return model.Errorf(code, "网点服务器返回 %d (branch server answered %d)", status, status)
}

// errUnreachable is what every client call returns while the server cannot
// be reached: a kiosk must never make up a number on its own.
var errUnreachable = model.Errorf(model.EUnavailable, "无法连接网点服务器 (branch server unreachable)")

// IsUnreachable reports whether err means the branch server could not be
// reached.
func IsUnreachable(err error) bool {
	var e *model.Error
	return errors.As(err, &e) && e.Code == model.EUnavailable
}
