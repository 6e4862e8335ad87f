package peer

import (
	"context"
	"strconv"
	"time"

	"jiaohao/model"
)

// A handheld on flaky Wi-Fi may lose a take's answer after the host took
// the number; the page then sends the same take again with the same
// request_id. The session remembers its recent takes by that id for
// takeMemoTTL (at most maxTakeMemos, the oldest forgotten first) and
// answers a repeat with the number already taken, so a lost answer does
// not become two numbers. A repeat that arrives while the first is still
// being taken waits for it.

const (
	takeMemoTTL  = 10 * time.Minute
	maxTakeMemos = 64
)

type takeMemo struct {
	body string // what was asked, so an id reused for another take is refused
	at   time.Time
	done chan struct{} // closed when the take ended
	t    model.Ticket
	ok   bool
}

// validRequestID: none, or 16 to 64 URL-safe characters.
func validRequestID(id string) bool {
	if id == "" {
		return true
	}
	if len(id) < 16 || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

var errRequestIDReused = model.Errorf(model.EConflict, "此取号请求编号已用于另一次取号 (this request_id was used for another take)")

// takeOnce runs take unless the session already took a number for q's
// request_id, whose ticket it returns instead (repeat).
func (sess *staffSession) takeOnce(ctx context.Context, q staffTakeRequest, now time.Time, take func() (model.Ticket, error)) (t model.Ticket, repeat bool, err error) {
	if sess == nil || q.RequestID == "" {
		t, err = take()
		return t, false, err
	}
	body := q.Service + "\x00" + strconv.FormatInt(q.Kiosk, 10) + "\x00" + strconv.Itoa(q.Priority)
	for {
		m, first, err := sess.memo(q.RequestID, body, now)
		if err != nil {
			return model.Ticket{}, false, err
		}
		if first {
			t, err := take()
			sess.mu.Lock()
			if err == nil {
				m.t, m.ok = t, true
			} else {
				delete(sess.takes, q.RequestID) // nothing was taken: a retry tries again
			}
			sess.mu.Unlock()
			close(m.done)
			return t, false, err
		}
		select {
		case <-m.done:
		case <-ctx.Done():
			return model.Ticket{}, false, model.Errorf(model.EUnavailable, "取号仍在处理，请稍后再试 (the take is still in progress; try again)")
		}
		if m.ok {
			return m.t, true, nil
		}
	}
}

// memo is the session's record of request id, a new one (first) when
// there is none.
func (sess *staffSession) memo(id, body string, now time.Time) (m *takeMemo, first bool, err error) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.takes == nil {
		sess.takes = map[string]*takeMemo{}
	}
	var oldestID string
	for k, old := range sess.takes {
		finished := old.ok // an unfinished take is never forgotten under its waiters
		if finished && now.Sub(old.at) >= takeMemoTTL {
			delete(sess.takes, k)
		} else if finished && (oldestID == "" || old.at.Before(sess.takes[oldestID].at)) {
			oldestID = k
		}
	}
	if m, ok := sess.takes[id]; ok {
		if m.body != body {
			return nil, false, errRequestIDReused
		}
		return m, false, nil
	}
	if len(sess.takes) >= maxTakeMemos && oldestID != "" {
		delete(sess.takes, oldestID)
	}
	m = &takeMemo{body: body, at: now, done: make(chan struct{})}
	sess.takes[id] = m
	return m, true, nil
}
