package app

import (
	"context"
	"fmt"
	"io"
)

// Version is the program's version. FyneApp.toml, which `fyne package` and
// the MSI take theirs from, says the same; a test keeps the two equal.
const Version = "0.1.0"

func init() {
	register("version", "print the program's version (also --version)", runVersion)
}

// runVersion prints one line, so an installer script or an IT department's
// inventory can read what a PC runs.
func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "jiaohao %s\n", Version)
	return nil
}
