//go:build linux

package app

import (
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
)

// A password typed at a real terminal (a pseudo-terminal here) is asked
// for and not shown: nothing of it comes back to the screen, and the
// clerk signs in with it.
func TestStaffPasswordFromTerminalIsNotShown(t *testing.T) {
	master, slave := openPTY(t)
	dsn := daotest.SQLiteDSN(t)
	prev := passwordIn
	t.Cleanup(func() { passwordIn = prev })
	passwordIn = slave

	screen := make(chan []byte, 64)
	go func() {
		for {
			b := make([]byte, 512)
			n, err := master.Read(b)
			if n > 0 {
				screen <- b[:n]
			}
			if err != nil {
				close(screen)
				return
			}
		}
	}()
	var shown bytes.Buffer
	waitFor := func(what string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for !strings.Contains(shown.String(), what) {
			select {
			case b, ok := <-screen:
				if !ok {
					t.Fatalf("the terminal closed before %q; it showed %q", what, shown.String())
				}
				shown.Write(b)
			case <-deadline:
				t.Fatalf("no %q on the terminal; it showed %q", what, shown.String())
			}
		}
	}

	done := make(chan int, 1)
	var out bytes.Buffer
	go func() {
		done <- run([]string{"staff", "add", "--number", "2001", "--name", "周敏", "--db", dsn}, &out, slave)
	}()
	waitFor(passwordLabel)
	echoOff := time.Now().Add(10 * time.Second)
	for {
		tio, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		if tio.Lflag&unix.ECHO == 0 {
			break
		}
		if time.Now().After(echoOff) {
			t.Fatal("the terminal still echoes what is typed after asking for the password")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := io.WriteString(master, "tty-secret-42\n"); err != nil {
		t.Fatal(err)
	}
	if code := <-done; code != 0 {
		t.Fatalf("staff add: exit %d: %s", code, shown.String())
	}
	if _, err := io.WriteString(slave, "END-OF-TEST\n"); err != nil {
		t.Fatal(err)
	}
	waitFor("END-OF-TEST")
	if strings.Contains(shown.String(), "tty-secret") {
		t.Fatalf("the password was shown on the terminal: %q", shown.String())
	}
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.SignIn(context.Background(), 1, "2001", "tty-secret-42"); err != nil {
		t.Fatalf("signing in with the password typed at the terminal: %v", err)
	}
}

// openPTY opens a pseudo-terminal pair: what is written to master is
// typed at slave, and what slave shows is read from master.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { slave.Close() })
	return master, slave
}
