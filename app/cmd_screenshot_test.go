package app

import (
	"bytes"
	"image"
	"image/png"
	"jiaohao/model"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The screenshot command renders every role of the table on demo data
// without a display: a PNG of the asked size showing a real screen, not a
// blank one.
func TestScreenshotEveryRole(t *testing.T) {
	for _, spec := range model.DesktopRoles() {
		role, size := string(spec.Role), roleScreens[spec.Role].shot
		t.Run(role, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), role+".png")
			var out, errb bytes.Buffer
			if code := run([]string{"screenshot", "--role", role, "--out", path}, &out, &errb); code != 0 {
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
			if b := img.Bounds(); b.Dx() != int(size.Width) || b.Dy() != int(size.Height) {
				t.Fatalf("image is %v, want %vx%v", b, size.Width, size.Height)
			}
			if n := colours(img); n < 50 {
				t.Fatalf("only %d colours: the screen rendered blank", n)
			}
		})
	}
}

func TestScreenshotRefusesBadArguments(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--role", "cashier", "--out", filepath.Join(dir, "x.png")},
		{"--role", "kiosk", "--out", filepath.Join(dir, "x.jpg")},
		{"--role", "kiosk", "--out", filepath.Join(dir, "x.png"), "--width", "-1"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"screenshot"}, args...), &out, &errb)
		if code != 2 || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line", args, code, errb.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.png")); err == nil {
		t.Error("a refused screenshot left a file behind")
	}
}

// colours counts distinct colours, sampling every 4th pixel.
func colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
		}
	}
	return len(seen)
}
