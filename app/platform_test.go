package app

// The platform seams, one test each: serial port names, the OS spooler, the
// speech engine and the config folders. They run on Linux in CI and are
// compiled for Windows by `.ci/build` (GOOS=windows go vet ./...), so a
// Windows-only branch that stops compiling fails CI too.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/printing"
)

func TestSerialPortNamesOnBothPlatforms(t *testing.T) {
	for addr, want := range map[string]string{
		"escpos+serial://COM3":                     "escpos+serial://COM3",
		"escpos+serial:///COM3":                    "escpos+serial://COM3", // a URL-minded installer's spelling
		"escpos+serial://com12?baud=19200":         "escpos+serial://com12",
		"escpos+serial:///dev/ttyUSB0":             "escpos+serial:///dev/ttyUSB0",
		"escpos+serial:///dev/ttyS1?baud=115200":   "escpos+serial:///dev/ttyS1",
		"escpos+serial:///dev/serial/by-id/usb-x0": "escpos+serial:///dev/serial/by-id/usb-x0",
	} {
		p, err := printing.OpenPrinter(addr)
		if err != nil {
			t.Errorf("OpenPrinter(%q): %v", addr, err)
			continue
		}
		if got := p.String(); got != want {
			t.Errorf("OpenPrinter(%q) names the port %q, want %q", addr, got, want)
		}
	}

	// The other platform's port name does not exist here: printing to it is
	// an error naming the port, never a hang or a crash.
	foreign := "escpos+serial://COM3"
	if runtime.GOOS == "windows" {
		foreign = "escpos+serial:///dev/ttyUSB0"
	}
	p, err := printing.OpenPrinter(foreign)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = p.Print(ctx, sampleSlip())
	if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(strings.TrimPrefix(foreign, "escpos+serial://"), "/")) {
		t.Fatalf("printing to the missing port %s: err = %v, want one naming the port", foreign, err)
	}
}

func sampleSlip() printing.Slip {
	return printing.Slip{Branch: "示例支行", Service: "个人业务", Number: "A012", Ahead: 3,
		Issued: time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC), Footer: "请留意叫号"}
}

// fakeProgram puts an executable called name first on PATH; it records its
// arguments, one a line, in the returned file and copies any argument that
// is an existing .png file next to it.
func fakeProgram(t *testing.T, name string) (argsFile string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake programs are shell scripts; CI runs this test on Linux and compiles it for Windows")
	}
	dir := t.TempDir()
	argsFile = filepath.Join(dir, "args")
	script := "#!/bin/sh\n: > " + argsFile + "\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> " + argsFile +
		"\ncase \"$a\" in *.png) [ -f \"$a\" ] && cp \"$a\" " + filepath.Join(dir, "ticket.png") + ";; esac\ndone\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return argsFile
}

func readLines(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the fake program was not run: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestSpoolerHandsTheTicketToLp: on Linux the spooler is CUPS's lp with the
// printer's name and a PNG of the ticket.
func TestSpoolerHandsTheTicketToLp(t *testing.T) {
	args := fakeProgram(t, "lp")
	p, err := printing.OpenPrinter("spool:Hall Printer 1?paper=58")
	if err != nil {
		t.Fatal(err)
	}
	if p.String() != "spool:Hall Printer 1" {
		t.Errorf("spool printer is called %q", p.String())
	}
	if err := p.Print(context.Background(), sampleSlip()); err != nil {
		t.Fatal(err)
	}
	got := readLines(t, args)
	if len(got) != 5 || got[0] != "-d" || got[1] != "Hall Printer 1" || got[2] != "-o" || got[3] != "fit-to-page" {
		t.Fatalf("lp was called with %q, want -d \"Hall Printer 1\" -o fit-to-page FILE.png", got)
	}
	png, err := os.ReadFile(filepath.Join(filepath.Dir(args), "ticket.png"))
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("lp was not given a PNG of the ticket (%v)", err)
	}
	if _, err := os.Stat(got[4]); !os.IsNotExist(err) {
		t.Errorf("the ticket image %s was left behind after printing", got[4])
	}
}

// TestSpeechEngineOfThePlatform: "auto" is espeak-ng on Linux (System.Speech
// on Windows), Mandarin by default, and a missing engine is one sentence.
func TestSpeechEngineOfThePlatform(t *testing.T) {
	args := fakeProgram(t, "espeak-ng")
	e, err := printing.FindEngine("auto")
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != printing.EngineEspeak {
		t.Fatalf("auto picked %s on %s, want %s", e.Name(), runtime.GOOS, printing.EngineEspeak)
	}
	if err := e.Speak(context.Background(), "请 A012 号到 3 号窗口", "zh"); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(readLines(t, args), " ")
	if !strings.Contains(got, "-v cmn") || !strings.HasSuffix(got, "-- 请 A012 号到 3 号窗口") {
		t.Errorf("espeak-ng was called with %q, want the Mandarin voice and the text after --", got)
	}

	t.Setenv("PATH", filepath.Dir(args)) // only the fake espeak-ng: no PowerShell here
	_, err = printing.FindEngine("sapi")
	if model.ErrorCode(err) != model.EUnavailable || strings.Contains(model.ErrorMessage(err), "\n") {
		t.Errorf("a missing engine gave %v (%s), want one sentence with code %s", err, model.ErrorCode(err), model.EUnavailable)
	}
}

// TestConfigFolders: the embedded database and Fyne's preferences live in
// the user's config folder of each platform.
func TestConfigFolders(t *testing.T) {
	for _, c := range []struct{ goos, home, cfg, want string }{
		{"windows", `C:\Users\clerk`, `C:\Users\clerk\AppData\Roaming`, filepath.Join(`C:\Users\clerk`, "AppData", "Roaming", "fyne", appID, "preferences.json")},
		{"linux", "/home/clerk", "/home/clerk/.config", filepath.Join("/home/clerk/.config", "fyne", appID, "preferences.json")},
		{"darwin", "/Users/clerk", "/Users/clerk/Library/Application Support", filepath.Join("/Users/clerk", "Library", "Preferences", "fyne", appID, "preferences.json")},
	} {
		if got := fynePrefsPath(c.goos, c.home, c.cfg, appID); got != c.want {
			t.Errorf("%s: preferences at %s, want %s", c.goos, got, c.want)
		}
	}

	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir) // Linux
	t.Setenv("AppData", dir)         // Windows
	t.Setenv("HOME", dir)
	t.Setenv("USERPROFILE", dir)
	want := "sqlite:" + filepath.Join(dir, "jiaohao", "jiaohao.db")
	if runtime.GOOS == "darwin" {
		want = "sqlite:" + filepath.Join(dir, "Library", "Application Support", "jiaohao", "jiaohao.db")
	}
	if got := sqlstore.DefaultDSN(); got != want {
		t.Errorf("DefaultDSN() = %s, want %s", got, want)
	}
	p, err := openFilePrefs(appID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.path, dir) || filepath.Base(p.path) != "preferences.json" {
		t.Errorf("preferences at %s, want under %s", p.path, dir)
	}
}
