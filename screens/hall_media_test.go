package screens

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"jiaohao/model"
)

// pngClaiming is the start of a PNG file whose header says w×h pixels:
// enough for DecodeConfig, a bomb for a decoder that trusts it.
func pngClaiming(w, h uint32) []byte {
	var ihdr bytes.Buffer
	ihdr.WriteString("IHDR")
	binary.Write(&ihdr, binary.BigEndian, w)
	binary.Write(&ihdr, binary.BigEndian, h)
	ihdr.Write([]byte{8, 6, 0, 0, 0}) // 8-bit RGBA
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	binary.Write(&out, binary.BigEndian, uint32(ihdr.Len()-4))
	out.Write(ihdr.Bytes())
	binary.Write(&out, binary.BigEndian, crc32.ChecksumIEEE(ihdr.Bytes()))
	return out.Bytes()
}

func writePNG(t *testing.T, path string, w, h int) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A picture is loaded within bounds: a header claiming a huge image and
// a file that is no image are refused, a camera-sized photo is scaled
// down to pictureMaxSide on its longer side.
func TestLoadPictureBounded(t *testing.T) {
	dir := t.TempDir()
	huge, junk, big := filepath.Join(dir, "huge.png"), filepath.Join(dir, "junk.jpg"), filepath.Join(dir, "big.png")
	if err := os.WriteFile(huge, pngClaiming(100000, 100000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(junk, []byte("not a picture at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	writePNG(t, big, 4000, 1000)
	for _, p := range []string{huge, junk, filepath.Join(dir, "gone.png")} {
		if img, err := loadPicture(p); err == nil {
			t.Errorf("%s loaded as %v", filepath.Base(p), img.Bounds())
		}
	}
	img, err := loadPicture(big)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got != image.Pt(pictureMaxSide, pictureMaxSide/4) {
		t.Fatalf("a 4000×1000 photo loaded at %v, want %d×%d", got, pictureMaxSide, pictureMaxSide/4)
	}
}

// The media area passes over the files that are no picture, or too large
// to be one, and shows the next that is, decoded before it reaches the
// UI goroutine (the image, not a file for the UI to read).
func TestHallMediaSkipsBadPictures(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.png"), pngClaiming(60000, 60000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.jpg"), []byte{0xff, 0xd8, 0xff, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "c.png")
	writePNG(t, good, 40, 30)
	st := demoStore(t)
	h := build(t, func(ctx context.Context) *Hall {
		return NewHallWith(ctx, newTestWindow(t, 1280, 720), st, nil, HallOptions{Layout: model.HallSplitTiles, Media: dir})
	})
	waitLoaded(t, h.Loaded())
	waitFor(t, "the one good picture", func() bool {
		m := h.media
		return m != nil && m.file == good && m.pic.Visible() && m.pic.File == "" && m.pic.Image != nil && m.pic.Image.Bounds().Dx() == 40
	})
}
