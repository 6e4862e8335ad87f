package peer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"jiaohao/model"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// A client that sends its headers and then trickles (or stops sending) the
// body is cut off at the body deadline, like one that is slow with its
// headers; nothing is taken. A WebSocket stream, which has no body, lives
// on past that deadline.
func TestSlowBodyClosedAtDeadline(t *testing.T) {
	e := newEnv(t, Options{BodyTimeout: 300 * time.Millisecond, TakePerMinute: -1})
	before := e.version(t)
	conn, err := net.Dial("tcp", e.ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/tickets HTTP/1.1\r\nHost: jiaohao\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"serv", e.tokens[model.RoleKiosk])
	start := time.Now()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	answer, err := io.ReadAll(conn) // until the server closes the connection
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the connection was still open after %v", time.Since(start).Round(time.Millisecond))
	}
	t.Logf("closed after %v: %q", time.Since(start).Round(time.Millisecond), firstLine(answer))
	if len(answer) > 0 && !bytes.HasPrefix(answer, []byte("HTTP/1.1 400")) {
		t.Fatalf("answer to a cut body: %q", firstLine(answer))
	}
	if e.version(t) != before {
		t.Fatal("a cut body changed the queue")
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.ts.URL, "http")+"/api/v1/events",
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + e.tokens[model.RoleScreen]}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	time.Sleep(time.Second) // over three body deadlines
	must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", e.tokens[model.RoleKiosk], `{"service":"A"}`)
	if _, b, err := ws.Read(ctx); err != nil || !bytes.Contains(b, []byte("A001")) {
		t.Fatalf("the event stream after the body deadline: %s %v", b, err)
	}
	// A plain request with a body is answered as usual.
	must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", e.tokens[model.RoleKiosk], `{"service":"A"}`)
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\r\n")
	return s
}
