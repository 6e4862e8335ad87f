package printing

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"
	"sync"

	"github.com/skip2/go-qrcode"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"jiaohao/assets"
)

// Tickets for the OS spooler are drawn as an image at 203 dpi, the
// resolution of thermal heads, so a driver prints them one to one.

// ticketFont is the embedded CJK font, parsed once on first use.
var ticketFont = sync.OnceValues(func() (*opentype.Font, error) {
	f, err := opentype.Parse(assets.CJKFont)
	if err != nil {
		return nil, fmt.Errorf("parse the embedded font: %w", err)
	}
	return f, nil
})

// RenderImage draws a slip as a black-on-white image as wide as the paper's
// printable area (384 dots on 58 mm, 576 on 80 mm).
func RenderImage(s Slip, p Paper) (image.Image, error) {
	f, err := ticketFont()
	if err != nil {
		return nil, err
	}
	w := p.columns() * 12
	c := &canvas{img: image.NewGray(image.Rect(0, 0, w, 2400)), font: f, y: 8}
	draw.Draw(c.img, c.img.Bounds(), image.White, image.Point{}, draw.Src)
	c.text(s.Branch, 30)
	c.text(s.Service, 30)
	c.text(s.Number, 96)
	if s.Area != "" {
		c.text(s.Area, 26)
	}
	if s.Level != "" {
		c.text(s.Level, 26)
	}
	c.text(s.aheadLine(), 22)
	c.text(s.issuedLine(), 22)
	if s.URL != "" {
		if err := c.qr(s.URL, int(p.qrModule())*33); err != nil {
			return nil, err
		}
		c.text("扫码查看排队进度", 22)
	}
	if s.Footer != "" {
		c.rule()
		c.text(s.Footer, 22)
	}
	if c.err != nil {
		return nil, c.err
	}
	return c.img.SubImage(image.Rect(0, 0, w, min(c.y+24, c.img.Bounds().Dy()))), nil
}

type canvas struct {
	img  *image.Gray
	font *opentype.Font
	y    int
	err  error
}

// text draws centred lines at size pixels, wrapping to the image width.
func (c *canvas) text(s string, size float64) {
	if s == "" || c.err != nil {
		return
	}
	face, err := opentype.NewFace(c.font, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		c.err = fmt.Errorf("font face: %w", err)
		return
	}
	defer face.Close()
	d := font.Drawer{Dst: c.img, Src: image.Black, Face: face}
	width := c.img.Bounds().Dx() - 16
	for _, line := range wrapMeasured(s, func(l string) int { return d.MeasureString(l).Ceil() }, width) {
		c.y += int(size * 1.25)
		x := (c.img.Bounds().Dx() - d.MeasureString(line).Ceil()) / 2
		d.Dot = fixed.P(x, c.y-int(size*0.2))
		d.DrawString(line)
	}
	c.y += 6
}

func (c *canvas) qr(data string, px int) error {
	q, err := qrcode.New(data, qrcode.Medium)
	if err != nil {
		return fmt.Errorf("QR code: %w", err)
	}
	q.DisableBorder = true
	img := q.Image(px)
	x := (c.img.Bounds().Dx() - px) / 2
	draw.Draw(c.img, image.Rect(x, c.y+8, x+px, c.y+8+px), img, image.Point{}, draw.Src)
	c.y += px + 16
	return nil
}

func (c *canvas) rule() {
	for x := 8; x < c.img.Bounds().Dx()-8; x++ {
		if x%8 < 5 {
			c.img.SetGray(x, c.y+6, color.Gray{})
		}
	}
	c.y += 12
}

// wrapMeasured splits s into lines no wider than max by measure.
func wrapMeasured(s string, measure func(string) int, max int) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		var line []rune
		for _, r := range para {
			if len(line) > 0 && measure(string(append(line, r))) > max {
				out = append(out, string(line))
				line = line[:0]
			}
			line = append(line, r)
		}
		out = append(out, string(line))
	}
	return out
}
