//go:build unix

package daotest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// PrivatePostgres starts a new PostgreSQL cluster (initdb, pg_ctl) on a
// spare port. It is stopped and removed when the test ends.
func PrivatePostgres(t testing.TB) *Private {
	t.Helper()
	initdb := needServerTool(t, "/usr/lib/postgresql/*/bin/initdb", "initdb")
	p := &Private{t: t, engine: "postgres", kind: pgServer{}, Password: privatePassword, port: freePort(t)}
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
		_ = pgCtl(p, "stop", "-m", "immediate").Run()
	})
	p.Start()
	return p
}

func pgCtl(p *Private, args ...string) *exec.Cmd {
	ctl := filepath.Join(filepath.Dir(needServerTool(p.t, "/usr/lib/postgresql/*/bin/pg_ctl", "pg_ctl")), "pg_ctl")
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", p.port, p.dir)
	all := append([]string{"-D", p.data(), "-l", filepath.Join(p.dir, "log"), "-o", opts, "-w", "-t", "60"}, args...)
	return serviceUser("postgres", exec.Command(ctl, all...))
}

// pgServer is PostgreSQL run by pg_ctl, which keeps its main process's id
// in the data directory.
type pgServer struct{}

func (pgServer) start(p *Private) {
	if out, err := pgCtl(p, "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(p.dir, "log"))
		p.t.Fatalf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
}

// stop: pg_ctl stop -m fast ends the sessions, telling each.
func (pgServer) stop(p *Private) { run(p.t, pgCtl(p, "stop", "-m", "fast")) }

func (pgServer) kill(p *Private) {
	for _, pid := range p.pids() {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func (pgServer) mainPID(p *Private) int {
	b, err := os.ReadFile(filepath.Join(p.data(), "postmaster.pid"))
	if err != nil {
		return 0
	}
	main, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	return main
}
