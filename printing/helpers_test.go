package printing

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"testing"
	"time"
)

// requireTool returns the path of a program the test needs. Missing, it
// skips the test, or fails it when JIAOHAO_TEST_REQUIRE_DEVICES=1 (CI), so
// a passing run can never hide a device test that did not run.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("JIAOHAO_TEST_REQUIRE_DEVICES") == "1" {
		t.Fatalf("%s is required (JIAOHAO_TEST_REQUIRE_DEVICES=1) but not installed: apt-get install %s", name, name)
	}
	t.Skipf("%s not installed: skipping (set JIAOHAO_TEST_REQUIRE_DEVICES=1 to make this a failure)", name)
	return ""
}

var ptyLine = regexp.MustCompile(`PTY is (\S+)`)

// ptyPair makes a virtual serial cable with socat and returns the name of
// one end and the other end opened for reading (before anything is sent,
// so no byte can arrive while nobody listens).
func ptyPair(t *testing.T) (string, *os.File) {
	t.Helper()
	socat := requireTool(t, "socat")
	cmd := exec.Command(socat, "-d", "-d", "pty,raw,echo=0", "pty,raw,echo=0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start socat: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	var names []string
	for len(names) < 2 && sc.Scan() {
		if m := ptyLine.FindStringSubmatch(sc.Text()); m != nil {
			names = append(names, m[1])
		}
	}
	if len(names) < 2 {
		t.Fatalf("socat gave no pty pair: %v", sc.Err())
	}
	go func() { // keep draining so socat never blocks on its log
		for sc.Scan() {
		}
	}()
	far, err := os.OpenFile(names[1], os.O_RDWR, 0) // a printer answers status queries
	if err != nil {
		t.Fatalf("open %s: %v", names[1], err)
	}
	t.Cleanup(func() { far.Close() })
	return names[0], far
}

// readUntilQuiet reads from the far end of a pty until want bytes arrived or the
// deadline (a safety net against a hang, not an assertion) passes.
// It runs on its own goroutine, so it returns what it has instead of
// failing the test; the caller compares.
func readUntilQuiet(f *os.File, n int) []byte {
	f.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 0, n)
	tmp := make([]byte, 4096)
	for len(buf) < n {
		k, err := f.Read(tmp)
		buf = append(buf, tmp[:k]...)
		if err != nil {
			break
		}
	}
	return buf
}

// fakePrinter records what it prints; fail decides the outcome of attempt
// n (1-based), and may block to let a test look at the queue meanwhile.
type fakePrinter struct {
	mu      sync.Mutex
	printed []Slip
	tries   int
	fail    func(ctx context.Context, n int) error
}

var errFakePaperOut = errors.New("paper out")

func (p *fakePrinter) String() string { return "fake" }

func (p *fakePrinter) Print(ctx context.Context, s Slip) error {
	p.mu.Lock()
	p.tries++
	n := p.tries
	p.mu.Unlock()
	if p.fail != nil {
		if err := p.fail(ctx, n); err != nil {
			return err
		}
	}
	p.mu.Lock()
	p.printed = append(p.printed, s)
	p.mu.Unlock()
	return nil
}

func (p *fakePrinter) Printed() []Slip {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Slip(nil), p.printed...)
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func knownSlip() Slip {
	return Slip{
		Branch:  "城东支行",
		Service: "个人业务",
		Number:  "A012",
		Ahead:   4,
		Wait:    10 * time.Minute,
		Issued:  time.Date(2026, 11, 29, 9, 15, 0, 0, time.UTC),
		URL:     "http://10.0.0.5:8520/t/Xy7kQ2",
		Footer:  "请留意叫号，过号请到窗口咨询",
	}
}

func quietLog(string, ...any) {}

// loopbackPrinter is a fake network printer: every connection to the
// returned address is handed to serve, and closed after it. It stops with
// the test.
func loopbackPrinter(tb testing.TB, serve func(c net.Conn)) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				serve(c)
			}()
		}
	}()
	return ln.Addr().String()
}
