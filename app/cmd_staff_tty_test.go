//go:build linux

package app

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
)

// A password typed at a real terminal (a pseudo-terminal here) is asked
// for twice and not shown: two entries that differ add nobody; two that
// agree add the clerk, who signs in with it; nothing typed comes back to
// the screen, and the terminal echoes again afterwards.
func TestStaffPasswordFromTerminalIsNotShown(t *testing.T) {
	p := terminalStdin(t)
	dsn := daotest.SQLiteDSN(t)
	add := func(first, second string) int {
		t.Helper()
		done := make(chan int, 1)
		go func() {
			done <- run([]string{"staff", "add", "--number", "2001", "--name", "周敏", "--db", dsn}, io.Discard, p.slave)
		}()
		p.waitFor(t, clerkPassword.label)
		p.typeHidden(t, first)
		p.waitFor(t, "再输入一次")
		p.typeHidden(t, second)
		select {
		case code := <-done:
			p.waitFor(t, p.mark())
			if p.echoOff(t) {
				t.Fatal("the terminal does not echo after the password was read")
			}
			return code
		case <-time.After(20 * time.Second):
			t.Fatalf("staff add did not end; the terminal showed %q", p.shown.String())
			return 0
		}
	}
	if code := add("tty-secret-42", "tty-secret-24"); code == 0 || !strings.Contains(p.shown.String(), "不一致") {
		t.Fatalf("two different entries: exit %d, the terminal showed %q", code, p.shown.String())
	}
	if code := add("tty-secret-42", "tty-secret-42"); code != 0 {
		t.Fatalf("staff add: exit %d: %q", code, p.shown.String())
	}
	if strings.Contains(p.shown.String(), "tty-secret") {
		t.Fatalf("the password was shown on the terminal: %q", p.shown.String())
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

// Ctrl+C at the prompt (the command's context ends) gives the terminal
// its echo back before the command returns.
func TestSecretPromptCancelledRestoresEcho(t *testing.T) {
	p := terminalStdin(t)
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan error, 1)
	go func() {
		_, err := readSecret(ctx, p.slave, customerLookup)
		got <- err
	}()
	p.waitFor(t, customerLookup.label)
	p.waitEchoOff(t)
	cancel()
	select {
	case err := <-got:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("a cancelled prompt returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled prompt did not return")
	}
	if p.echoOff(t) {
		t.Fatal("the terminal does not echo after a cancelled prompt")
	}
}
