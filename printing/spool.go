package printing

import (
	"context"
	"errors"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// spoolPrinter hands the ticket, drawn as a PNG, to the operating system's
// print system: for printers that only come with a driver.
type spoolPrinter struct {
	name  string
	paper Paper
	goos  string
	run   func(ctx context.Context, env []string, prog string, args ...string) error
}

func newSpoolPrinter(name string, paper Paper) *spoolPrinter {
	return &spoolPrinter{name: name, paper: paper, goos: runtime.GOOS, run: runCommand}
}

func (p *spoolPrinter) String() string { return "spool:" + p.name }

func (p *spoolPrinter) Print(ctx context.Context, s Slip) error {
	img, err := RenderImage(s, p.paper)
	if err != nil {
		return fmt.Errorf("draw ticket: %w", err)
	}
	f, err := os.CreateTemp("", "jiaohao-ticket-*.png")
	if err != nil {
		return fmt.Errorf("spool ticket: %w", err)
	}
	defer os.Remove(f.Name())
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("spool ticket: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("spool ticket: %w", err)
	}
	prog, args, env := p.command(f.Name())
	if err := p.run(ctx, env, prog, args...); err != nil {
		return fmt.Errorf("print on %s: %w", p.String(), err)
	}
	return nil
}

// winPrintScript prints the image on a named Windows printer through
// System.Drawing, scaled to the page width. Names come through the
// environment so no quoting can break the script.
const winPrintScript = `$ErrorActionPreference='Stop'
Add-Type -AssemblyName System.Drawing
$img=[System.Drawing.Image]::FromFile($env:JIAOHAO_TICKET)
try {
 $pd=New-Object System.Drawing.Printing.PrintDocument
 $pd.PrinterSettings.PrinterName=$env:JIAOHAO_PRINTER
 if(-not $pd.PrinterSettings.IsValid){ throw "printer not found: $env:JIAOHAO_PRINTER" }
 $pd.add_PrintPage({ param($s,$e)
  $w=$e.PageBounds.Width; $h=[int]($img.Height*$w/$img.Width)
  $e.Graphics.DrawImage($img,0,0,$w,$h); $e.HasMorePages=$false })
 $pd.Print()
} finally { $img.Dispose() }`

// command is the spooler call for the platform: lp with the printer name on
// Linux and macOS (CUPS prints PNG natively), PowerShell on Windows.
func (p *spoolPrinter) command(file string) (string, []string, []string) {
	if p.goos == "windows" {
		env := []string{"JIAOHAO_TICKET=" + file, "JIAOHAO_PRINTER=" + p.name}
		return "powershell", []string{"-NoProfile", "-NonInteractive", "-Command", winPrintScript}, env
	}
	return "lp", []string{"-d", p.name, "-o", "fit-to-page", file}, nil
}

// runCommand runs prog and turns a failure into one line with the tool's
// own last words.
func runCommand(ctx context.Context, env []string, prog string, args ...string) error {
	cmd := exec.CommandContext(ctx, prog, args...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	out, err := cmd.CombinedOutput()
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("%s is not installed on this PC", prog)
	}
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		if msg != "" {
			return fmt.Errorf("%s: %w: %s", prog, err, msg)
		}
		return fmt.Errorf("%s: %w", prog, err)
	}
	return nil
}
