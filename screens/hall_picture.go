package screens

import (
	"fmt"
	"image"
	_ "image/jpeg" // the media folder's JPEG pictures
	_ "image/png"  // and its PNG ones
	"os"

	"golang.org/x/image/draw"
)

const (
	// pictureMaxPixels bounds the pictures decoded: a 50-megapixel photo
	// takes 200 MB while it is scaled down. A file claiming more (a
	// panorama, or a corrupt or hostile header) is left out rather than
	// exhausting a hall PC's memory.
	pictureMaxPixels = 50 << 20
	// pictureMaxSide is a picture's longer side once loaded: the media
	// area is at most half of a 4K display, so a camera's photo is
	// scaled down once, off the UI goroutine, instead of drawn from its
	// full size.
	pictureMaxSide = 1920
)

// loadPicture decodes the still image at path, scaled down to
// pictureMaxSide. It runs off the UI goroutine: a large picture takes
// long to decode, and the hall's clock and calls must not wait for it.
func loadPicture(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(f)
	if err != nil {
		return nil, fmt.Errorf("picture %s: %w", path, err)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px <= 0 || px > pictureMaxPixels {
		return nil, fmt.Errorf("picture %s: %d×%d pixels, over the %d million a hall shows", path, cfg.Width, cfg.Height, pictureMaxPixels>>20)
	}
	if _, err := f.Seek(0, 0); err != nil {
		return nil, fmt.Errorf("picture %s: %w", path, err)
	}
	img, _, err := image.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("picture %s: %w", path, err)
	}
	b := img.Bounds()
	long := max(b.Dx(), b.Dy())
	if long <= pictureMaxSide {
		return img, nil
	}
	w, h := max(b.Dx()*pictureMaxSide/long, 1), max(b.Dy()*pictureMaxSide/long, 1)
	small := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(small, small.Bounds(), img, b, draw.Src, nil)
	return small, nil
}
