package scripts

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The shared display, seen the way a user sees it: windows by title,
// keys and clicks through XTEST, pixels, and the title bar's × (the
// WM_DELETE_WINDOW a window manager sends).

// xwindows lists the display's windows (xwininfo -root -tree).
func (w *wine) xwindows(t *testing.T) string {
	t.Helper()
	out, errOut, err := w.try(t, "xwininfo", "-root", "-tree")
	if err != nil {
		t.Fatalf("xwininfo: %v: %s", err, errOut)
	}
	return out
}

// waitWindow waits until a mapped window has exactly this title and
// returns its X id.
func (w *wine) waitWindow(t *testing.T, title string, d time.Duration, p *proc) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		out, _, err := w.try(t, "xdotool", "search", "--onlyvisible", "--name", "^"+regexpQuote(title)+"$")
		if id := strings.Fields(out); err == nil && len(id) > 0 {
			return id[0]
		}
		if p != nil {
			select {
			case err := <-p.done:
				p.done <- err
				t.Fatalf("the program ended (%v) before a window titled %q opened:\n%s", err, title, p.output())
			default:
			}
		}
		if time.Now().After(deadline) {
			out := ""
			if p != nil {
				out = p.output()
			}
			t.Fatalf("no window titled %q within %s; windows:\n%s\noutput:\n%s", title, d, w.xwindows(t), out)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// xid is an X window id as xwininfo prints it.
func xid(id string) string {
	n, _ := strconv.ParseUint(id, 10, 64)
	return fmt.Sprintf("0x%x", n)
}

func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// key gives the window the keyboard focus and types key on it.
func (w *wine) key(t *testing.T, id, key string) {
	t.Helper()
	if _, errOut, err := w.try(t, "xdotool", "windowfocus", "--sync", id, "key", key); err != nil {
		t.Fatalf("xdotool key %s: %v: %s", key, err, errOut)
	}
}

// click presses the left button at a point given as fractions of the
// window's size.
func (w *wine) click(t *testing.T, id string, fx, fy float64) {
	t.Helper()
	wd, ht := w.geometry(t, id)
	x, y := strconv.Itoa(int(fx*float64(wd))), strconv.Itoa(int(fy*float64(ht)))
	if _, errOut, err := w.try(t, "xdotool", "mousemove", "--window", id, "--sync", x, y, "click", "1"); err != nil {
		t.Fatalf("xdotool click: %v: %s", err, errOut)
	}
}

// geometry is a window's size.
func (w *wine) geometry(t *testing.T, id string) (int, int) {
	t.Helper()
	out, _, err := w.try(t, "xdotool", "getwindowgeometry", "--shell", id)
	if err != nil {
		t.Fatalf("xdotool getwindowgeometry: %v", err)
	}
	geo := map[string]int{}
	for _, line := range strings.Fields(out) {
		if k, v, ok := strings.Cut(line, "="); ok {
			geo[k], _ = strconv.Atoi(v)
		}
	}
	return geo["WIDTH"], geo["HEIGHT"]
}

// closeWindow sends the window titled title WM_DELETE_WINDOW, as its
// title bar's × does (the desktop tests' closewindow.py).
func (w *wine) closeWindow(t *testing.T, title string) {
	t.Helper()
	if _, errOut, err := w.try(t, python3(), filepath.Join("..", "app", "testdata", "closewindow.py"), title); err != nil {
		t.Fatalf("closing %q: %v: %s\nwindows:\n%s", title, err, errOut, w.xwindows(t))
	}
}

// screenshot reads the window's pixels from the X server. With
// JIAOHAO_WINE_SHOTS set to a folder, a PNG of them is kept there, named
// for the test, for a person to look at.
func (w *wine) screenshot(t *testing.T, id string) *image.RGBA {
	t.Helper()
	// With no window manager the windows pile up where they open: bring
	// this one to the top and give it time to redraw what was covered.
	if _, errOut, err := w.try(t, "xdotool", "windowraise", id); err != nil {
		t.Fatalf("xdotool windowraise: %v: %s", err, errOut)
	}
	time.Sleep(2 * time.Second)
	raw := filepath.Join(w.root, "shot.raw")
	if _, errOut, err := w.try(t, python3(), filepath.Join("testdata", "wine", "grab.py"), id, raw); err != nil {
		t.Fatalf("grab.py: %v: %s", err, errOut)
	}
	b, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	head, px, ok := bytes.Cut(b, []byte("\n"))
	var wd, ht int
	if _, err := fmt.Sscanf(string(head), "%d %d", &wd, &ht); !ok || err != nil || wd <= 0 || ht <= 0 || len(px) < 4*wd*ht {
		t.Fatalf("grab.py wrote %d bytes for %q", len(b), head)
	}
	img := image.NewRGBA(image.Rect(0, 0, wd, ht))
	for i := 0; i < wd*ht; i++ {
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = px[4*i+2], px[4*i+1], px[4*i], 0xff
	}
	if dir := os.Getenv("JIAOHAO_WINE_SHOTS"); dir != "" {
		f, err := os.Create(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".png"))
		if err == nil {
			err = png.Encode(f, img)
			f.Close()
		}
		if err != nil {
			t.Errorf("keeping the screenshot: %v", err)
		}
	}
	return img
}

// inked measures a picture: how many colours it has, what share of its
// pixels differ from the commonest colour (the background), and what
// share is pure black (nothing drawn there, or another window's).
func inked(img *image.RGBA) (colours int, share, black float64) {
	count := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[img.RGBAAt(x, y)]++
		}
	}
	most := 0
	for _, n := range count {
		most = max(most, n)
	}
	total := float64(b.Dx() * b.Dy())
	return len(count), (total - float64(most)) / total, float64(count[color.RGBA{A: 0xff}]) / total
}
