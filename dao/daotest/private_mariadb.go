//go:build unix

package daotest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// PrivateMariaDB starts a new MariaDB server (mariadb-install-db,
// mariadbd) on a spare port with its own socket and data directory; extra
// are more mariadbd options (--ssl-cert=…).
func PrivateMariaDB(t testing.TB, extra ...string) *Private {
	t.Helper()
	install := needServerTool(t, "mariadb-install-db", "mysql_install_db")
	needServerTool(t, "/usr/sbin/mariadbd", "mariadbd")
	p := &Private{t: t, engine: "mysql", kind: &mariaServer{extra: extra}, Password: privatePassword, port: freePort(t)}
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

func (m *mariaServer) mariadbd(p *Private) *exec.Cmd {
	bin := needServerTool(p.t, "/usr/sbin/mariadbd", "mariadbd")
	args := []string{"--no-defaults", "--datadir=" + p.data(), "--port=" + strconv.Itoa(p.port),
		"--bind-address=127.0.0.1", "--socket=" + filepath.Join(p.dir, "sock"), "--pid-file=" + filepath.Join(p.dir, "pid"),
		"--log-error=" + filepath.Join(p.dir, "err.log"), "--skip-name-resolve", "--skip-log-bin",
		"--innodb-buffer-pool-size=16M", "--max-connections=200", "--init-file=" + filepath.Join(p.dir, "init.sql")}
	args = append(args, m.extra...)
	if os.Geteuid() == 0 {
		args = append(args, "--user=mysql")
	}
	return exec.Command(bin, args...)
}

// mariaServer is mariadbd run as the test's own child process.
type mariaServer struct {
	extra  []string      // more server options
	cmd    *exec.Cmd     // mariadbd while running
	exited chan struct{} // closed when cmd has exited
}

func (m *mariaServer) start(p *Private) {
	m.cmd = m.mariadbd(p)
	if err := m.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	m.exited = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) { cmd.Wait(); close(done) }(m.cmd, m.exited)
}

// stop is a crash: SIGKILL.
func (m *mariaServer) stop(p *Private) { m.kill(p) }

func (m *mariaServer) kill(*Private) {
	if m.cmd != nil && m.cmd.Process != nil {
		_ = m.cmd.Process.Kill()
		<-m.exited
		m.cmd = nil
	}
}

func (m *mariaServer) mainPID(*Private) int {
	if m.cmd == nil || m.cmd.Process == nil {
		return 0
	}
	return m.cmd.Process.Pid
}
