package model

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // a logo may be a JPEG
	_ "image/png"  // or a PNG
	"math"
	"net/url"
	"strconv"
	"strings"
)

// Look is the branch's own look on every screen (seed 002, 显示管理): its
// colours from the "colors" setting and its logo (BranchLogo). Set is
// false while the branch chose no colours: each screen keeps its own
// palette then (the hall dark, the kiosk light).
type Look struct {
	Set        bool
	Background color.NRGBA
	Number     color.NRGBA // the called numbers
	Highlight  color.NRGBA // the newest call's row
	Text       color.NRGBA // every other text
}

// DefaultLook is the hall's own palette: what a "colors" value leaves out
// keeps these. The highlight is a deep red: the gold number on the
// lighter #c62828 is 3.98:1, under MinContrast.
var DefaultLook = Look{
	Background: color.NRGBA{R: 0x0a, G: 0x16, B: 0x28, A: 0xff},
	Number:     color.NRGBA{R: 0xff, G: 0xd5, B: 0x4f, A: 0xff},
	Highlight:  color.NRGBA{R: 0xb7, G: 0x1c, B: 0x1c, A: 0xff},
	Text:       color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff},
}

// MinContrast is the WCAG 2.x contrast ratio normal text needs (level AA).
const MinContrast = 4.5

// lookParts names the colours of a "colors" value, in the order they are
// written back.
var lookParts = []string{"background", "number", "highlight", "text"}

func (l *Look) part(name string) *color.NRGBA {
	switch name {
	case "background":
		return &l.Background
	case "number":
		return &l.Number
	case "highlight":
		return &l.Highlight
	case "text":
		return &l.Text
	}
	return nil
}

// ParseLook reads the "colors" setting: background=#0a1628&number=#ffd54f
// &highlight=#b71c1c&text=#ffffff, any part left out keeping DefaultLook's.
// "" is no branch colours. One value holds all four so a change from a
// dark to a light look is one step: colour by colour, each intermediate
// pair could be unreadable and refused. A wrong value, or one whose text
// would be unreadable (CheckContrast), is one sentence.
func ParseLook(v string) (Look, error) {
	l := DefaultLook
	if strings.TrimSpace(v) == "" {
		return l, nil
	}
	l.Set = true
	q, err := url.ParseQuery(strings.TrimSpace(v))
	if err != nil {
		return l, Errorf(EInvalidInput, "颜色设置应为 background=#0a1628&number=#ffd54f&highlight=#b71c1c&text=#ffffff，收到 %q (colors must be background=…&number=…&highlight=…&text=…)", v)
	}
	for k, vals := range q {
		p := l.part(k)
		if p == nil {
			return l, Errorf(EInvalidInput, "未知的颜色 %q，可用 background、number、highlight、text (unknown colour %q)", k, k)
		}
		c, err := ParseColor(vals[len(vals)-1])
		if err != nil {
			return l, err
		}
		*p = c
	}
	return l, CheckContrast(l)
}

// String writes the look back as a "colors" value ("" when not Set).
func (l Look) String() string {
	if !l.Set {
		return ""
	}
	var parts []string
	for _, k := range lookParts {
		parts = append(parts, k+"="+HexColor(*l.part(k)))
	}
	return strings.Join(parts, "&")
}

// ParseColor reads #rrggbb (the # may be left out).
func ParseColor(s string) (color.NRGBA, error) {
	h := strings.TrimPrefix(strings.TrimSpace(s), "#")
	n, err := strconv.ParseUint(h, 16, 32)
	if len(h) != 6 || err != nil {
		return color.NRGBA{}, Errorf(EInvalidInput, "颜色须写成 #rrggbb，例如 #0a1628，收到 %q (a colour is #rrggbb)", s)
	}
	return color.NRGBA{R: uint8(n >> 16), G: uint8(n >> 8), B: uint8(n), A: 0xff}, nil
}

// HexColor is c as #rrggbb.
func HexColor(c color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Luminance is the WCAG 2.x relative luminance of c (0 black, 1 white).
func Luminance(c color.NRGBA) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// ContrastRatio is the WCAG 2.x contrast ratio of two colours, 1 to 21.
func ContrastRatio(a, b color.NRGBA) float64 {
	la, lb := Luminance(a), Luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// CheckContrast refuses a look whose text cannot be read: the number and
// the text on the background, the number and the text on the highlight
// (the newest call's row holds both), each at least MinContrast. The refusal is ELowContrast and names the pair.
func CheckContrast(l Look) error {
	pairs := []struct {
		zh, en   string
		fg, back color.NRGBA
	}{
		{"号码与背景", "number on background", l.Number, l.Background},
		{"文字与背景", "text on background", l.Text, l.Background},
		{"号码与高亮", "number on highlight", l.Number, l.Highlight},
		{"文字与高亮", "text on highlight", l.Text, l.Highlight},
	}
	for _, p := range pairs {
		if r := ContrastRatio(p.fg, p.back); r < MinContrast {
			r = math.Floor(r*100) / 100 // 4.48 must not be told as 4.5
			return Errorf(ELowContrast, "%s的对比度只有 %.2f:1，至少需要 %.1f:1，远处看不清，设置未更改 (%s contrast is %.2f:1, at least %.1f:1 is needed; nothing changed)",
				p.zh, r, MinContrast, p.en, r, MinContrast)
		}
	}
	return nil
}

// MaxLogoBytes bounds the branch logo: it travels to every PC with each
// reload, and a header logo needs no more.
const MaxLogoBytes = 256 << 10

// MaxLogoSide bounds the logo's width and height in pixels, so a small
// file cannot unpack into a huge picture on every screen.
const MaxLogoSide = 2048

// CheckLogo accepts a PNG or JPEG of at most MaxLogoBytes that decodes
// whole and is at most MaxLogoSide pixels each way; nil or empty (no
// logo) is accepted too. It returns the format name.
func CheckLogo(data []byte) (string, error) {
	if len(data) == 0 {
		return "", nil
	}
	if len(data) > MaxLogoBytes {
		// Readers stop a byte past the bound: the size itself is unknown.
		return "", Errorf(EInvalidInput, "标志图片超过 %d KB，设置未更改 (the logo is over %d KB; nothing changed)",
			MaxLogoBytes>>10, MaxLogoBytes>>10)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err == nil && (format != "png" && format != "jpeg") {
		err = fmt.Errorf("format %s", format)
	}
	if err == nil && (cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxLogoSide || cfg.Height > MaxLogoSide) {
		return "", Errorf(EInvalidInput, "标志图片为 %d×%d 像素，每边须在 1 到 %d 之间，设置未更改 (the logo is %d×%d pixels, each side must be 1 to %d; nothing changed)",
			cfg.Width, cfg.Height, MaxLogoSide, cfg.Width, cfg.Height, MaxLogoSide)
	}
	if err == nil {
		_, _, err = image.Decode(bytes.NewReader(data)) // a damaged body fails only here
	}
	if err != nil {
		return "", Errorf(EInvalidInput, "标志须为完整的 PNG 或 JPEG 图片，设置未更改 (the logo must be a whole PNG or JPEG image; nothing changed)")
	}
	return format, nil
}
