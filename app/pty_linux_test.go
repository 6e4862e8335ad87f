package app

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// pty is a pseudo-terminal pair: what is written to master is typed at
// slave, and what slave shows (echo included) is read from master into
// shown.
type pty struct {
	master, slave *os.File
	screen        chan []byte
	shown         bytes.Buffer
	marks         int
}

// terminalStdin makes a pseudo-terminal the commands' standard input
// until the test ends. A machine without /dev/ptmx skips the test, or
// fails it under JIAOHAO_TEST_REQUIRE_TOOLS=1 as CI runs.
func terminalStdin(t *testing.T) *pty {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		missing(t, "no pseudo-terminal ("+err.Error()+")", "JIAOHAO_TEST_REQUIRE_TOOLS")
	}
	t.Cleanup(func() { master.Close() })
	// Through the raw connection, so master stays in the runtime's poller
	// and closing it ends the reader below.
	var n int
	control(t, master, func(fd int) error {
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return err
		}
		var err error
		n, err = unix.IoctlGetInt(fd, unix.TIOCGPTN)
		return err
	})
	slave, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { slave.Close() })
	p := &pty{master: master, slave: slave, screen: make(chan []byte, 64)}
	go func() {
		defer close(p.screen)
		for {
			b := make([]byte, 512)
			n, err := master.Read(b)
			if n > 0 {
				p.screen <- b[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	prev := secretIn
	secretIn = slave
	t.Cleanup(func() { secretIn = prev })
	return p
}

func control(t *testing.T, f *os.File, fn func(fd int) error) {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil || ferr != nil {
		t.Fatalf("pseudo-terminal: %v %v", err, ferr)
	}
}

// waitFor reads the screen until it shows what.
func (p *pty) waitFor(t *testing.T, what string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !strings.Contains(p.shown.String(), what) {
		select {
		case b, ok := <-p.screen:
			if !ok {
				t.Fatalf("the terminal closed before %q; it showed %q", what, p.shown.String())
			}
			p.shown.Write(b)
		case <-deadline:
			t.Fatalf("no %q on the terminal; it showed %q", what, p.shown.String())
		}
	}
}

// echoOff says whether the terminal has its echo off.
func (p *pty) echoOff(t *testing.T) bool {
	t.Helper()
	var off bool
	control(t, p.slave, func(fd int) error {
		tio, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		off = err == nil && tio.Lflag&unix.ECHO == 0
		return err
	})
	return off
}

// waitEchoOff waits until the reader has turned the echo off: a line
// typed before then would be shown whatever the reader does.
func (p *pty) waitEchoOff(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !p.echoOff(t); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the terminal still echoes what is typed after asking for a secret")
		}
	}
}

// typeHidden types line once the echo is off.
func (p *pty) typeHidden(t *testing.T, line string) {
	t.Helper()
	p.waitEchoOff(t)
	if _, err := io.WriteString(p.master, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// mark shows a line of its own on the terminal and returns it: once
// waitFor has seen it, everything shown before it has been read.
func (p *pty) mark() string {
	p.marks++
	m := "MARK-" + strconv.Itoa(p.marks)
	io.WriteString(p.slave, m+"\r\n")
	return m
}
