package app

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"jiaohao/dao/daotest"
)

// migrate against a server that accepts the connection and never answers
// fails within the connect timeout with one sentence, on every engine
// (MariaDB used to hang for over ten minutes).
func TestMigrateAgainstSilentServer(t *testing.T) {
	for _, scheme := range []string{"mysql://u:secretpw@%s/q", "sqlserver://u:secretpw@%s?database=q", "postgres://u:secretpw@%s/q"} {
		dsn := fmt.Sprintf(scheme, daotest.Silent(t))
		t.Run(strings.Split(scheme, ":")[0], func(t *testing.T) {
			var out, errb bytes.Buffer
			done := make(chan int, 1)
			start := time.Now()
			go func() { done <- run([]string{"migrate", "--db", dsn}, &out, &errb) }()
			select {
			case code := <-done:
				msg := errb.String()
				t.Logf("after %v: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(msg))
				if code != 1 || strings.Count(msg, "\n") != 1 || strings.Contains(msg, "secretpw") || !strings.Contains(msg, "cannot reach the database") {
					t.Fatalf("exit %d, stderr %q", code, msg)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("migrate still waiting for a silent server after 5 s")
			}
		})
	}
}

// SIGTERM ends `jiaohao serve` within 5 s even with a client stuck in the
// middle of a request and a live event stream open.
func TestSignalStopsServe(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "jiaohao")
	build := exec.Command("go", "build", "-o", bin, "jiaohao")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--db", daotest.SQLiteDSN(t), "--listen", "127.0.0.1:0", "--sweep", "0")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	addr := ""
	for addr == "" && lines.Scan() {
		if _, after, ok := strings.Cut(lines.Text(), "serving the branch on http://"); ok {
			addr = strings.Fields(after)[0]
		}
	}
	var rest bytes.Buffer
	copied := make(chan struct{})
	go func() { io.Copy(&rest, stderr); close(copied) }()
	stuck, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	fmt.Fprint(stuck, "POST /api/v1/tickets HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
	time.Sleep(200 * time.Millisecond)

	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { <-copied; exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		t.Logf("stopped %v after SIGTERM: %v\n%s", time.Since(start).Round(time.Millisecond), err, rest.String())
		if err != nil || !strings.Contains(rest.String(), "server stopped") {
			t.Fatalf("serve ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve still running 5 s after SIGTERM")
	}
}
