//go:build unix

package daotest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"jiaohao/dao/sqlstore"
)

// Private is a database server of the test's own, on a spare port with its
// own data directory, that the test may stop, kill, freeze and start
// again: fault tests never touch the servers other tests share.
type Private struct {
	// DSN reaches the server as a user with a password, so tests can check
	// that the password never reaches a log or a message.
	DSN      string
	Password string

	t      testing.TB
	dir    string
	port   int
	engine string // for messages
	kind   server
}

// server is what each kind of private server does its own way.
type server interface {
	start(p *Private)
	// stop shuts the server down as an operator would.
	stop(p *Private)
	kill(p *Private)
	// mainPID is the server's main process, 0 when it is not running.
	mainPID(p *Private) int
}

// privatePassword is the password of the private servers' test user.
const privatePassword = "Pr1vate-Secret-9"

// needServerTool finds a server binary: a missing one skips the test, or
// fails it where JIAOHAO_TEST_REQUIRE_SERVERS=1 (CI).
func needServerTool(t testing.TB, patterns ...string) string {
	t.Helper()
	for _, p := range patterns {
		if !strings.Contains(p, "/") {
			if path, err := exec.LookPath(p); err == nil {
				return path
			}
			continue
		}
		if m, _ := filepath.Glob(p); len(m) > 0 {
			sort.Strings(m)
			return m[len(m)-1] // the newest version
		}
	}
	if os.Getenv(EnvRequire) == "1" {
		t.Fatalf("%s is not installed but %s=1", patterns[0], EnvRequire)
	}
	t.Skipf("%s not installed: private server not started", patterns[0])
	return ""
}

// serviceUser runs cmd as user when the test runs as root (the servers
// refuse root), as the test's own user otherwise.
func serviceUser(user string, cmd *exec.Cmd) *exec.Cmd {
	if os.Geteuid() != 0 {
		return cmd
	}
	return exec.Command("runuser", append([]string{"-u", user, "--", cmd.Path}, cmd.Args[1:]...)...)
}

// privateDir makes a directory the service user owns, outside t.TempDir
// (whose parents only root may enter).
func privateDir(t testing.TB, user, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if os.Geteuid() == 0 {
		if out, err := exec.Command("chown", user, dir).CombinedOutput(); err != nil {
			t.Fatalf("chown %s: %v %s", dir, err, out)
		}
	}
	return dir
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func run(t testing.TB, cmd *exec.Cmd) {
	t.Helper()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
}

func (p *Private) data() string { return filepath.Join(p.dir, "data") }

// Start starts the server on its data directory and port and waits until
// it answers.
func (p *Private) Start() {
	p.t.Helper()
	p.kind.start(p)
	p.waitReady()
}

func (p *Private) waitReady() {
	p.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err := sqlstore.Ping(ctx, p.DSN)
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(p.dir, "err.log"))
			p.t.Fatalf("private %s did not come up: %v\n%s", p.engine, err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Stop shuts the server down: pg_ctl stop -m fast (sessions are ended,
// the server says so to each), or SIGKILL for MariaDB (a crash).
func (p *Private) Stop() {
	p.t.Helper()
	p.kind.stop(p)
}

// Kill ends the server at once, without shutting down.
func (p *Private) Kill() { p.kind.kill(p) }

// Freeze stops every process of the server with SIGSTOP: connections stay
// open and nothing answers, as on a hung server. Thaw resumes them.
func (p *Private) Freeze() { p.signal(syscall.SIGSTOP) }

// Thaw resumes a frozen server.
func (p *Private) Thaw() { p.signal(syscall.SIGCONT) }

func (p *Private) signal(sig syscall.Signal) {
	p.t.Helper()
	pids := p.pids()
	if len(pids) == 0 {
		p.t.Fatalf("private %s: no processes to signal", p.engine)
	}
	// Every process is signalled before any failure is reported: a Thaw
	// that stopped at the first error left the rest stopped, and the
	// test's deferred rollback then waited on them for good.
	var failed []string
	for _, pid := range pids {
		// A backend may end between the listing and the signal.
		if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			failed = append(failed, fmt.Sprintf("%d: %v", pid, err))
		}
	}
	if len(failed) > 0 {
		p.t.Fatalf("private %s: signal %v: %s", p.engine, sig, strings.Join(failed, "; "))
	}
}

// pids is the server's main process and all its children (PostgreSQL's
// backends and helpers), main process first.
func (p *Private) pids() []int {
	main := p.kind.mainPID(p)
	if main <= 0 {
		return nil
	}
	out := []int{main}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces, so read after ')'.
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == strconv.Itoa(main) {
			out = append(out, pid)
		}
	}
	return out
}
