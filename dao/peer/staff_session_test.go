package peer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"jiaohao/model"
)

// movableClock is a host clock a test moves instead of sleeping.
type movableClock struct {
	mu sync.Mutex
	t  time.Time
}

func newMovableClock() *movableClock { return &movableClock{t: time.Now()} }

func (c *movableClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *movableClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// heldSessions counts the live sessions the host holds for terminal id.
func heldSessions(e *env, id int64) int {
	e.srv.staff.mu.Lock()
	defer e.srv.staff.mu.Unlock()
	n := 0
	for _, sess := range e.srv.staff.byKey {
		if sess.who.ID == id {
			n++
		}
	}
	return n
}

// sessionValue is the session cookie a sign-in set.
func sessionValue(t *testing.T, resp *http.Response) string {
	t.Helper()
	for _, ck := range resp.Cookies() {
		if ck.Name == staffCookie {
			return ck.Value
		}
	}
	t.Fatal("no session cookie")
	return ""
}

// meWith asks /staff/api/me with one cookie value, outside any jar.
func meWith(t *testing.T, e *env, value string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", e.ts.URL+"/staff/api/me", nil)
	req.AddCookie(&http.Cookie{Name: staffCookie, Value: value})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A session lasts its 12 hours on the host's clock and not a second more;
// the expired one is no longer held.
func TestStaffSessionExpires(t *testing.T) {
	clk := newMovableClock()
	e := newEnv(t, Options{StaffClock: clk.Now})
	c := signedIn(t, e)
	clk.Add(staffSessionTTL - time.Second)
	if resp, b := c.do(t, "GET", "/staff/api/me", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("a second before expiry: %d %s", resp.StatusCode, b)
	}
	clk.Add(time.Second)
	if resp, b := c.do(t, "GET", "/staff/api/me", ""); resp.StatusCode != http.StatusUnauthorized || errCode(t, b) != model.EUnauthorized {
		t.Fatalf("at expiry: %d %s", resp.StatusCode, b)
	}
	e.srv.staff.mu.Lock()
	held := len(e.srv.staff.byKey)
	e.srv.staff.mu.Unlock()
	if held != 0 {
		t.Fatalf("%d expired sessions still held", held)
	}
}

// Signing in again in the same browser ends the session it had: the old
// cookie no longer answers and the host holds one session.
func TestStaffSignInAgainEndsPrevious(t *testing.T) {
	e := newEnv(t, Options{})
	c := newStaffClient(t, e.ts.URL, nil)
	first := sessionValue(t, c.signIn(t, e.tokens[model.RoleHandheld]))
	second := sessionValue(t, c.signIn(t, e.tokens[model.RoleHandheld]))
	if st := meWith(t, e, first); st != http.StatusUnauthorized {
		t.Fatalf("the first session still answers: %d", st)
	}
	if st := meWith(t, e, second); st != http.StatusOK {
		t.Fatalf("the new session: %d", st)
	}
	if resp, _ := c.do(t, "GET", "/staff/api/me", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("the browser's session after signing in again: %d", resp.StatusCode)
	}
	e.srv.staff.mu.Lock()
	held := len(e.srv.staff.byKey)
	e.srv.staff.mu.Unlock()
	if held != 1 {
		t.Fatalf("%d sessions held after signing in twice in one browser", held)
	}
}

// One terminal's sign-ins keep at most maxSessionsPerTerminal sessions,
// its oldest ending first; another handheld's session is untouched.
func TestStaffSessionsCappedPerTerminal(t *testing.T) {
	e := newEnv(t, Options{})
	otherTok := addToken(t, e.store, model.RoleHandheld, 0)
	other := newStaffClient(t, e.ts.URL, nil)
	other.signIn(t, otherTok)
	var values []string
	for i := 0; i < maxSessionsPerTerminal+3; i++ {
		values = append(values, sessionValue(t, newStaffClient(t, e.ts.URL, nil).signIn(t, e.tokens[model.RoleHandheld])))
	}
	for i, v := range values {
		want := http.StatusOK
		if i < 3 {
			want = http.StatusUnauthorized
		}
		if st := meWith(t, e, v); st != want {
			t.Errorf("session %d of %d: %d, want %d", i+1, len(values), st, want)
		}
	}
	if resp, b := other.do(t, "GET", "/staff/api/me", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("another handheld's session: %d %s", resp.StatusCode, b)
	}
	e.srv.staff.mu.Lock()
	held := len(e.srv.staff.byKey)
	e.srv.staff.mu.Unlock()
	if held != maxSessionsPerTerminal+1 {
		t.Fatalf("%d sessions held, want %d", held, maxSessionsPerTerminal+1)
	}
}

// Bad sign-ins sent at once from one address are counted one by one:
// five are answered 401, every other one 429.
func TestStaffLockoutConcurrent(t *testing.T) {
	e := newEnv(t, Options{})
	c := newStaffClient(t, e.ts.URL, nil)
	codes := make(chan int, 40)
	var wg sync.WaitGroup
	for i := 0; i < cap(codes); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := c.do(t, "POST", "/staff/api/session", `{"token":"jh_`+randomString()+`"}`)
			codes <- resp.StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for st := range codes {
		count[st]++
	}
	if count[http.StatusUnauthorized] != signInFailLimit || count[http.StatusTooManyRequests] != cap(codes)-signInFailLimit {
		t.Fatalf("answers %v, want %d × 401 and the rest 429", count, signInFailLimit)
	}
}

// An IPv6 client is counted by its /64, so hopping addresses inside it
// gives no new tries; another /64 and an IPv4 address are apart.
func TestStaffLockoutPerIPv6Prefix(t *testing.T) {
	ss := newStaffSessions(newMovableClock().Now)
	for i := 0; i < signInFailLimit; i++ {
		ss.failed(fmt.Sprintf("2001:db8:1:2::%x", i+1))
	}
	if !ss.lockedOut("2001:db8:1:2:ffff::9") || !ss.failed("2001:db8:1:2:abcd::1") {
		t.Fatal("another address of the same /64 is not locked")
	}
	if ss.lockedOut("2001:db8:1:3::1") || ss.lockedOut("192.0.2.1") {
		t.Fatal("another /64 or an IPv4 address is locked")
	}
}

// A table full of addresses (a flood from many) does not leave a new
// address uncounted: the oldest count goes, the new one locks; and a
// count ends with its window on the host's clock.
func TestStaffLockoutTableFull(t *testing.T) {
	clk := newMovableClock()
	ss := newStaffSessions(clk.Now)
	for i := 0; i < maxSignInTrackers; i++ {
		ss.failed(fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255))
	}
	clk.Add(time.Second)
	for i := 0; i < signInFailLimit; i++ {
		ss.failed("192.0.2.7")
	}
	if !ss.lockedOut("192.0.2.7") {
		t.Fatal("a new address past a full table was not counted")
	}
	ss.mu.Lock()
	n := len(ss.fails)
	ss.mu.Unlock()
	if n > maxSignInTrackers {
		t.Fatalf("the table grew to %d", n)
	}
	clk.Add(signInFailWindow)
	if ss.lockedOut("192.0.2.7") {
		t.Fatal("still locked after the window")
	}
}

// A take sent again with the same request_id (its answer was lost)
// answers the number the first one took, also when the repeats arrive at
// once; the id used for another take is refused; a new id, or the same
// one after it is forgotten, takes a new number.
func TestStaffTakeRequestIDOnce(t *testing.T) {
	clk := newMovableClock()
	e := newEnv(t, Options{StaffClock: clk.Now})
	ctx := context.Background()
	c := signedIn(t, e)
	take := func(body string) (int, staffTicket, []byte) {
		resp, b := c.do(t, "POST", "/staff/api/tickets", body)
		var tk staffTicket
		_ = json.Unmarshal(b, &tk)
		return resp.StatusCode, tk, b
	}
	const once = `{"service":"A","request_id":"0123456789abcdef0123456789abcdef"}`
	st, first, b := take(once)
	if st != http.StatusCreated {
		t.Fatalf("take: %d %s", st, b)
	}
	ids := make(chan int64, 8)
	var wg sync.WaitGroup
	for i := 0; i < cap(ids); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if st, tk, b := take(once); st != http.StatusCreated {
				t.Errorf("repeat: %d %s", st, b)
			} else {
				ids <- tk.ID
			}
		}()
	}
	wg.Wait()
	close(ids)
	for id := range ids {
		if id != first.ID {
			t.Errorf("a repeat took ticket %d, the first %d", id, first.ID)
		}
	}
	if st, _, b := take(`{"service":"B","request_id":"0123456789abcdef0123456789abcdef"}`); st != http.StatusConflict || errCode(t, b) != model.EConflict {
		t.Errorf("the id reused for another service: %d %s", st, b)
	}
	next, err := e.store.TakeTicket(ctx, "A", 0, "test")
	if err != nil || next.SeqNo != first.SeqNo+1 {
		t.Fatalf("repeats took more numbers: first %s, next %s %v", first.Number, next.Number, err)
	}
	if st, tk, b := take(`{"service":"A","request_id":"fedcba9876543210fedcba9876543210"}`); st != http.StatusCreated || tk.SeqNo != next.SeqNo+1 {
		t.Errorf("a new id: %d %s", st, b)
	}
	clk.Add(takeMemoTTL)
	if st, tk, b := take(once); st != http.StatusCreated || tk.ID == first.ID {
		t.Errorf("the id after it is forgotten: %d %s", st, b)
	}
	if st, _, b := take(`{"service":"A","request_id":"short"}`); st != http.StatusBadRequest {
		t.Errorf("a malformed id: %d %s", st, b)
	}
}

// lockedOut reports, for the tests, whether addr's bad sign-ins are past the limit now.
func (ss *staffSessions) lockedOut(addr string) bool {
	now, key := ss.now(), failKey(addr)
	ss.mu.Lock()
	defer ss.mu.Unlock()
	f, ok := ss.fails[key]
	return ok && now.Sub(f.since) < signInFailWindow && f.n >= signInFailLimit
}
