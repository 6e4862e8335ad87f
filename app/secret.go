package app

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"jiaohao/model"
)

// Secrets an operator types for a command: a clerk's password, a
// customer's ID or card number. They come on standard input, never as a
// flag (flags show in the process list and the shell's history); typed
// at a terminal they are asked for and not shown.

// secretIn is where secrets are read; tests replace it.
var secretIn io.Reader = os.Stdin

// secret is one thing readSecret asks for.
type secret struct {
	label string // the prompt at a terminal
	// confirm: asked twice at a terminal, where a typo nobody saw would
	// set a password nobody knows.
	confirm bool
}

var (
	clerkPassword  = secret{label: "密码 (password)", confirm: true}
	customerID     = secret{label: "证件号 (ID number)"}
	customerCard   = secret{label: "卡号 (card number)"}
	customerLookup = secret{label: "证件号或卡号 (ID or card number)"}
)

// readSecret reads s: at a terminal without showing it, after asking on
// prompt (standard error, the terminal itself when a person types);
// otherwise (a pipe, a file) as the first line.
func readSecret(ctx context.Context, prompt io.Writer, s secret) (string, error) {
	if f, ok := secretIn.(*os.File); ok {
		if fd := int(f.Fd()); term.IsTerminal(fd) {
			return readHidden(ctx, fd, prompt, s)
		}
	}
	line, err := bufio.NewReader(secretIn).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("read the %s from standard input: %w", s.label, err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// readHidden reads s at terminal fd with its echo off. A Ctrl+C ends ctx
// while the read waits, and the terminal gets its echo back then: the
// read's own restore only runs when a line comes, and the process may
// exit before that.
func readHidden(ctx context.Context, fd int, prompt io.Writer, s secret) (string, error) {
	state, err := term.GetState(fd)
	if err != nil {
		return "", fmt.Errorf("read the %s from the terminal: %w", s.label, err)
	}
	v, err := askHidden(ctx, fd, state, prompt, s.label)
	if err != nil || !s.confirm {
		return v, err
	}
	again, err := askHidden(ctx, fd, state, prompt, "再输入一次 (again)")
	if err != nil {
		return "", err
	}
	if again != v {
		return "", model.Errorf(model.EInvalidInput, "两次输入不一致，未作更改 (the two entries differ; nothing changed)")
	}
	return v, nil
}

// askHidden asks for label and reads one line at terminal fd without
// echo; if ctx ends first it puts the terminal back to state.
func askHidden(ctx context.Context, fd int, state *term.State, prompt io.Writer, label string) (string, error) {
	fmt.Fprint(prompt, label+": ")
	type line struct {
		b   []byte
		err error
	}
	got := make(chan line, 1)
	go func() {
		b, err := term.ReadPassword(fd)
		got <- line{b, err}
	}()
	select {
	case l := <-got:
		fmt.Fprintln(prompt)
		if l.err != nil {
			return "", fmt.Errorf("read the %s from the terminal: %w", label, l.err)
		}
		return string(l.b), nil
	case <-ctx.Done():
		_ = term.Restore(fd, state)
		fmt.Fprintln(prompt)
		return "", ctx.Err()
	}
}
