//go:build unix

package daotest

import (
	"context"
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
	engine string
	extra  []string      // more server options
	cmd    *exec.Cmd     // mariadbd while running
	exited chan struct{} // closed when cmd has exited
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

// PrivatePostgres starts a new PostgreSQL cluster (initdb, pg_ctl) on a
// spare port. It is stopped and removed when the test ends.
func PrivatePostgres(t testing.TB) *Private {
	t.Helper()
	initdb := needServerTool(t, "/usr/lib/postgresql/*/bin/initdb", "initdb")
	p := &Private{t: t, engine: "postgres", Password: privatePassword, port: freePort(t)}
	p.dir = privateDir(t, "postgres", "jiaohao-pg-")
	pw := filepath.Join(p.dir, "pw")
	if err := os.WriteFile(pw, []byte(privatePassword+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, serviceUser("postgres", exec.Command(initdb, "-D", p.data(), "-U", "postgres", "--pwfile", pw,
		"-A", "scram-sha-256", "-E", "UTF8", "--locale", "C", "--no-sync")))
	p.DSN = fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/postgres", privatePassword, p.port)
	t.Cleanup(func() {
		for _, pid := range p.pids() { // a test that failed while frozen
			_ = syscall.Kill(pid, syscall.SIGCONT)
		}
		_ = p.pgCtl("stop", "-m", "immediate").Run()
	})
	p.Start()
	return p
}

func (p *Private) data() string { return filepath.Join(p.dir, "data") }

func (p *Private) pgCtl(args ...string) *exec.Cmd {
	ctl := filepath.Join(filepath.Dir(needServerTool(p.t, "/usr/lib/postgresql/*/bin/pg_ctl", "pg_ctl")), "pg_ctl")
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", p.port, p.dir)
	all := append([]string{"-D", p.data(), "-l", filepath.Join(p.dir, "log"), "-o", opts, "-w", "-t", "60"}, args...)
	return serviceUser("postgres", exec.Command(ctl, all...))
}

// PrivateMariaDB starts a new MariaDB server (mariadb-install-db,
// mariadbd) on a spare port with its own socket and data directory; extra
// are more mariadbd options (--ssl-cert=…).
func PrivateMariaDB(t testing.TB, extra ...string) *Private {
	t.Helper()
	install := needServerTool(t, "mariadb-install-db", "mysql_install_db")
	needServerTool(t, "/usr/sbin/mariadbd", "mariadbd")
	p := &Private{t: t, engine: "mysql", Password: privatePassword, port: freePort(t), extra: extra}
	p.dir = privateDir(t, "mysql", "jiaohao-my-")
	init := fmt.Sprintf(`CREATE USER IF NOT EXISTS 'jh'@'127.0.0.1' IDENTIFIED BY '%s';
GRANT ALL ON *.* TO 'jh'@'127.0.0.1';
CREATE DATABASE IF NOT EXISTS jiaohao;
`, privatePassword)
	if err := os.WriteFile(filepath.Join(p.dir, "init.sql"), []byte(init), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--no-defaults", "--datadir=" + p.data(), "--auth-root-authentication-method=normal",
		"--skip-test-db", "--innodb-buffer-pool-size=16M"}
	if os.Geteuid() == 0 {
		args = append(args, "--user=mysql")
	}
	run(t, exec.Command(install, args...))
	p.DSN = fmt.Sprintf("mysql://jh:%s@127.0.0.1:%d/jiaohao", privatePassword, p.port)
	t.Cleanup(func() { p.Kill() })
	p.Start()
	return p
}

func (p *Private) mariadbd() *exec.Cmd {
	bin := needServerTool(p.t, "/usr/sbin/mariadbd", "mariadbd")
	args := []string{"--no-defaults", "--datadir=" + p.data(), "--port=" + strconv.Itoa(p.port),
		"--bind-address=127.0.0.1", "--socket=" + filepath.Join(p.dir, "sock"), "--pid-file=" + filepath.Join(p.dir, "pid"),
		"--log-error=" + filepath.Join(p.dir, "err.log"), "--skip-name-resolve", "--skip-log-bin",
		"--innodb-buffer-pool-size=16M", "--max-connections=200", "--init-file=" + filepath.Join(p.dir, "init.sql")}
	args = append(args, p.extra...)
	if os.Geteuid() == 0 {
		args = append(args, "--user=mysql")
	}
	return exec.Command(bin, args...)
}

// Start starts the server on its data directory and port and waits until
// it answers.
func (p *Private) Start() {
	p.t.Helper()
	switch p.engine {
	case "postgres":
		if out, err := p.pgCtl("start").CombinedOutput(); err != nil {
			log, _ := os.ReadFile(filepath.Join(p.dir, "log"))
			p.t.Fatalf("pg_ctl start: %v\n%s\n%s", err, out, log)
		}
	case "mysql":
		p.cmd = p.mariadbd()
		if err := p.cmd.Start(); err != nil {
			p.t.Fatal(err)
		}
		p.exited = make(chan struct{})
		go func(cmd *exec.Cmd, done chan struct{}) { cmd.Wait(); close(done) }(p.cmd, p.exited)
	}
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
	switch p.engine {
	case "postgres":
		run(p.t, p.pgCtl("stop", "-m", "fast"))
	case "mysql":
		p.Kill()
	}
}

// Kill ends the server at once, without shutting down.
func (p *Private) Kill() {
	switch p.engine {
	case "postgres":
		for _, pid := range p.pids() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	case "mysql":
		if p.cmd != nil && p.cmd.Process != nil {
			_ = p.cmd.Process.Kill()
			<-p.exited
			p.cmd = nil
		}
	}
}

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
	for _, pid := range pids {
		if err := syscall.Kill(pid, sig); err != nil {
			p.t.Fatalf("signal %d: %v", pid, err)
		}
	}
}

// pids is the server's main process and all its children (PostgreSQL's
// backends and helpers), main process first.
func (p *Private) pids() []int {
	main := 0
	switch p.engine {
	case "postgres":
		b, err := os.ReadFile(filepath.Join(p.data(), "postmaster.pid"))
		if err != nil {
			return nil
		}
		main, _ = strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	case "mysql":
		if p.cmd == nil || p.cmd.Process == nil {
			return nil
		}
		main = p.cmd.Process.Pid
	}
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
