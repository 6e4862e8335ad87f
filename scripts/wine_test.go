package scripts

// The packaged Windows program, run under wine. The tests share one wine
// prefix and one virtual X display, set up on first use in a temporary
// folder (wineboot takes 15-60 s) and removed when the tests end.
//
// Debian's wine 8 has no bcryptprimitives.dll, whose ProcessPrng every Go
// 1.24+ program calls at start-up; the harness builds a stand-in from
// testdata/wine/bcryptprimitives.c with mingw-w64 into the prefix's
// system32. Real Windows 10 and later have it.
//
// They run when JIAOHAO_DIST_DIR names the output of scripts/package.sh;
// JIAOHAO_BUILD_DIR, the folder .ci/build builds into, gives the Linux
// build (the other side of the peer tests) and the console-subsystem
// build. With JIAOHAO_TEST_REQUIRE_WINE=1 a missing tool is a failure.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	EnvRequireWine = "JIAOHAO_TEST_REQUIRE_WINE"
	EnvBuildDir    = "JIAOHAO_BUILD_DIR"
)

// wine is the shared prefix, its X display and the program installed at
// C:\jiaohao\jiaohao.exe.
type wine struct {
	root   string // everything lives here
	prefix string // WINEPREFIX
	drive  string // prefix/drive_c
	env    []string
	xvfb   *exec.Cmd
	exe    string // the program's Windows path
}

var (
	wineOnce sync.Once
	shared   *wine
	wineErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != nil {
		shared.close()
	}
	os.Exit(code)
}

// needTools skips the test when a tool is missing, or fails it in CI.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv(EnvRequireWine) == "1" {
				t.Fatalf("%s is not installed but %s=1 (Debian: wine64 wine xvfb x11-utils xdotool python3-xlib socat mingw-w64 poppler-utils wixl msitools)", tool, EnvRequireWine)
			}
			t.Skipf("%s not installed; the wine tests need it (set %s=1 to fail instead)", tool, EnvRequireWine)
		}
	}
}

// needWine returns the shared prefix with the packaged program in it.
func needWine(t *testing.T) *wine {
	t.Helper()
	exe := distFile(t, "jiaohao-*-windows-amd64.exe")
	needTools(t, "wine", "wineserver", "Xvfb", "x86_64-w64-mingw32-gcc", "xwininfo", "xdotool", "socat", python3())
	wineOnce.Do(func() {
		start := time.Now()
		shared, wineErr = setupWine(exe)
		t.Logf("wine prefix ready in %.1f s", time.Since(start).Seconds())
	})
	if wineErr != nil {
		t.Fatalf("wine prefix: %v", wineErr)
	}
	return shared
}

// buildFile is a program .ci/build built: the Linux build or the console
// build of the Windows program.
func buildFile(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv(EnvBuildDir)
	if dir == "" {
		if os.Getenv(EnvRequireWine) == "1" {
			t.Fatalf("%s=1 but %s is not set: point it at the folder .ci/build builds into", EnvRequireWine, EnvBuildDir)
		}
		t.Skipf("set %s to the folder with .ci/build's jiaohao and jiaohao.exe", EnvBuildDir)
	}
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no %s in %s=%s: %v", name, EnvBuildDir, dir, err)
	}
	return path
}

func setupWine(exe string) (w *wine, err error) {
	root, err := os.MkdirTemp("", "jiaohao-wine-")
	if err != nil {
		return nil, err
	}
	w = &wine{root: root, prefix: filepath.Join(root, "prefix")}
	w.drive = filepath.Join(w.prefix, "drive_c")
	defer func() {
		if err != nil {
			w.close()
		}
	}()
	display, err := w.startXvfb()
	if err != nil {
		return nil, err
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "DISPLAY" && !strings.HasPrefix(k, "WINE") {
			w.env = append(w.env, kv)
		}
	}
	// No Mono or Gecko install prompt: the program needs neither.
	w.env = append(w.env, "WINEPREFIX="+w.prefix, "WINEARCH=win64", "WINEDEBUG=-all",
		"WINEDLLOVERRIDES=mscoree,mshtml=", "DISPLAY="+display)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if out, err := w.command(ctx, "wineboot", "--init").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("wineboot: %v\n%s", err, out)
	}
	shim := filepath.Join(w.drive, "windows", "system32", "bcryptprimitives.dll")
	gcc := exec.CommandContext(ctx, "x86_64-w64-mingw32-gcc", "-shared", "-O2", "-o", shim,
		filepath.Join("testdata", "wine", "bcryptprimitives.c"), "-ladvapi32")
	if out, err := gcc.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the ProcessPrng stand-in: %v\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(w.drive, "jiaohao"), 0o755); err != nil {
		return nil, err
	}
	if err := copyFile(exe, filepath.Join(w.drive, "jiaohao", "jiaohao.exe")); err != nil {
		return nil, err
	}
	w.exe = `C:\jiaohao\jiaohao.exe`
	return w, nil
}

// startXvfb starts the display the wine and Linux windows share and
// returns its name.
func (w *wine) startXvfb() (string, error) {
	r, wr, err := os.Pipe()
	if err != nil {
		return "", err
	}
	defer r.Close()
	w.xvfb = exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1600x1000x24", "-nolisten", "tcp", "-noreset")
	w.xvfb.ExtraFiles = []*os.File{wr}
	err = w.xvfb.Start()
	wr.Close()
	if err != nil {
		return "", fmt.Errorf("Xvfb: %w", err)
	}
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			return "", fmt.Errorf("Xvfb gave no display number")
		}
		return ":" + n, nil
	case <-time.After(30 * time.Second):
		return "", fmt.Errorf("Xvfb did not start within 30 s")
	}
}

func (w *wine) close() {
	if w.env != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		w.command(ctx, "wineserver", "-k").Run()
		cancel()
	}
	if w.xvfb != nil && w.xvfb.Process != nil {
		w.xvfb.Process.Kill()
		w.xvfb.Wait()
	}
	os.RemoveAll(w.root)
}

// command is a program run with the prefix's environment: "wine", a wine
// tool, or a Linux program that needs the display.
func (w *wine) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	switch name {
	case "wineboot", "msiexec", "reg", "start", "taskkill":
		args, name = append([]string{name}, args...), "wine"
	}
	c := exec.CommandContext(ctx, name, args...)
	c.Env = w.env
	return c
}

// jiaohao runs the program under wine to its end and returns what it
// printed on stdout; a non-zero exit fails the test.
func (w *wine) jiaohao(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, err := w.try(t, "wine", append([]string{w.exe}, args...)...)
	if err != nil {
		t.Fatalf("jiaohao.exe %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// try runs a program with the prefix's environment, allowing 3 minutes.
func (w *wine) try(t *testing.T, name string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := w.command(ctx, name, args...)
	var o, e bytes.Buffer
	c.Stdout, c.Stderr = &o, &e
	err = c.Run()
	return o.String(), e.String(), err
}

// launch starts a program the way Explorer or a shortcut does (wine's
// start), without waiting for it. Its output goes nowhere: a started
// program would hold a pipe open for as long as it runs.
func (w *wine) launch(t *testing.T, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := w.command(ctx, "start", args...).Run(); err != nil {
		t.Fatalf("start %s: %v", strings.Join(args, " "), err)
	}
}

// folder makes a fresh folder on the prefix's C: drive and returns its
// Linux and Windows paths.
func (w *wine) folder(t *testing.T, name string) (unix, windows string) {
	t.Helper()
	unix, err := os.MkdirTemp(filepath.Join(w.drive, "jiaohao"), name+"-")
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(w.drive, unix)
	return unix, `C:\` + strings.ReplaceAll(rel, "/", `\`)
}

// proc is a program left running: its output goes to a log file.
type proc struct {
	cmd  *exec.Cmd
	log  string
	done chan error
}

// start runs a program in the background; it is killed when the test ends
// if it is still running.
func (w *wine) start(t *testing.T, name string, args ...string) *proc {
	t.Helper()
	f, err := os.CreateTemp(w.root, "log-*.txt")
	if err != nil {
		t.Fatal(err)
	}
	c := w.command(context.Background(), name, args...)
	c.Stdout, c.Stderr = f, f
	if err := c.Start(); err != nil {
		f.Close()
		t.Fatal(err)
	}
	p := &proc{cmd: c, log: f.Name(), done: make(chan error, 1)}
	go func() { p.done <- c.Wait(); f.Close() }()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			c.Process.Kill()
			<-p.done
		}
	})
	return p
}

func (p *proc) output() string {
	b, _ := os.ReadFile(p.log)
	return string(b)
}

// wait returns the program's exit error, failing the test when it runs
// on past d.
func (p *proc) wait(t *testing.T, d time.Duration) error {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err // later waits see it too
		return err
	case <-time.After(d):
		t.Fatalf("%s still running after %s; output:\n%s", p.cmd.Args, d, p.output())
		return nil
	}
}

// waitOutput waits until the program has printed s, and returns its
// output.
func (p *proc) waitOutput(t *testing.T, s string, d time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		out := p.output()
		if strings.Contains(out, s) {
			return out
		}
		select {
		case err := <-p.done:
			p.done <- err
			t.Fatalf("%s ended (%v) without printing %q:\n%s", p.cmd.Args, err, s, p.output())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not print %q within %s:\n%s", p.cmd.Args, s, d, out)
		}
	}
}

// freeAddr is a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755)
}

// python3 is the system's Python, which has Debian's python3-xlib.
func python3() string {
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	return "python3"
}
