package daotest

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"testing"
)

// LogoPNG is a w×h PNG of noise, so it stays large: a 300×120 one is over
// the 64 KiB of a plain BLOB column on MySQL and of a peer request body.
func LogoPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(r.IntN(256))
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
