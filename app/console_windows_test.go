//go:build windows

package app

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUsableHandles: output redirected to a file is kept as it is; only a
// missing handle makes the program borrow the console.
func TestUsableHandles(t *testing.T) {
	if usable(nil) {
		t.Error("a missing handle counted as usable")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !usable(f) {
		t.Error("a file did not count as usable")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if !usable(w) {
		t.Error("a pipe did not count as usable")
	}
}
