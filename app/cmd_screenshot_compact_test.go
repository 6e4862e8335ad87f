package app

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's picture of the compact caller comes from the screenshot
// command: the strip at its size, drawn; other roles have no strip.
func TestCompactScreenshot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "compact.png")
	var out, errb bytes.Buffer
	if code := run([]string{"screenshot", "--role", "caller", "--compact", "--out", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 480 || b.Dy() != 64 {
		t.Fatalf("the strip's picture is %v, want 480×64", b)
	}
	if n := colours(img); n < 20 {
		t.Fatalf("only %d colours: the strip rendered blank", n)
	}
	errb.Reset()
	if code := run([]string{"screenshot", "--role", "kiosk", "--compact", "--out", path}, &out, &errb); code == 0 ||
		!strings.Contains(errb.String(), "--compact is for the caller only") {
		t.Fatalf("a kiosk's strip: exit %d, %q", code, errb.String())
	}
}
