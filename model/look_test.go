package model

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"strings"
	"testing"
)

func TestContrastRatioKnownValues(t *testing.T) {
	black, white := color.NRGBA{A: 0xff}, color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	grey := color.NRGBA{R: 0x77, G: 0x77, B: 0x77, A: 0xff} // the WCAG example: 4.48:1 on white
	for _, c := range []struct {
		a, b color.NRGBA
		want float64
	}{{black, white, 21}, {white, white, 1}, {grey, white, 4.48}} {
		if got := ContrastRatio(c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("ContrastRatio(%v, %v) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

func TestParseLookRefusesLowContrastWithSentence(t *testing.T) {
	for _, v := range []string{
		"background=#ffffff&number=#777777&text=#000000", // number on background 4.48:1
		"background=#ffffff&number=#000000&text=#eeeeee", // text on background
		"highlight=#ffffff", // white text on a white highlight
		// The newest call's number sits on the highlight: gold on red is 3.98:1.
		"background=#0a1628&number=#ffd54f&highlight=#c62828&text=#ffffff",
	} {
		_, err := ParseLook(v)
		if !IsCode(err, ELowContrast) {
			t.Errorf("ParseLook(%q) = %v, want %s", v, err, ELowContrast)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "对比度") || !strings.Contains(msg, "contrast") || strings.Index(msg, "对比度") > strings.Index(msg, "contrast") {
			t.Errorf("ParseLook(%q) says %q: want one sentence, Chinese first, then English", v, msg)
		}
		if err := ValidateSetting("colors", v); !IsCode(err, ELowContrast) {
			t.Errorf("ValidateSetting(colors, %q) = %v, want %s", v, err, ELowContrast)
		}
	}
}

func TestParseLookRoundTrip(t *testing.T) {
	l, err := ParseLook("background=#FFFFFF&number=0b5cad&text=#000000&highlight=#ffd54f")
	if err != nil {
		t.Fatal(err)
	}
	want := Look{Set: true, Background: color.NRGBA{0xff, 0xff, 0xff, 0xff}, Number: color.NRGBA{0x0b, 0x5c, 0xad, 0xff},
		Highlight: color.NRGBA{0xff, 0xd5, 0x4f, 0xff}, Text: color.NRGBA{0, 0, 0, 0xff}}
	if l != want {
		t.Fatalf("ParseLook = %+v, want %+v", l, want)
	}
	if again, err := ParseLook(l.String()); err != nil || again != l {
		t.Fatalf("ParseLook(%q) = %+v, %v; want it back", l.String(), again, err)
	}
	if l, err := ParseLook(""); err != nil || l.Set || l.String() != "" {
		t.Fatalf(`ParseLook("") = %+v, %v: want no branch colours`, l, err)
	}
	for _, bad := range []string{"background=#12345", "colour=#ffffff", "number=#gggggg"} {
		if _, err := ParseLook(bad); !IsCode(err, EInvalidInput) {
			t.Errorf("ParseLook(%q) = %v, want %s", bad, err, EInvalidInput)
		}
	}
	if err := CheckContrast(DefaultLook); err != nil {
		t.Fatalf("the default look is refused: %v", err)
	}
}

func encodeLogo(t *testing.T, w, h int, enc func(*bytes.Buffer, image.Image) error) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	var b bytes.Buffer
	if err := enc(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestCheckLogo(t *testing.T) {
	pngData := encodeLogo(t, 40, 20, func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) })
	jpgData := encodeLogo(t, 40, 20, func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, nil) })
	if f, err := CheckLogo(pngData); err != nil || f != "png" {
		t.Errorf("CheckLogo(png) = %q, %v", f, err)
	}
	if f, err := CheckLogo(jpgData); err != nil || f != "jpeg" {
		t.Errorf("CheckLogo(jpeg) = %q, %v", f, err)
	}
	if _, err := CheckLogo(nil); err != nil {
		t.Errorf("CheckLogo(nil) = %v: no logo is allowed", err)
	}
	huge := encodeLogo(t, 4000, 1, func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) })
	for name, bad := range map[string][]byte{
		"truncated": pngData[:len(pngData)/2],
		"not image": []byte("GIF89a not really"),
		"too large": append(append([]byte{}, pngData...), make([]byte, MaxLogoBytes)...),
		"too wide":  huge,
	} {
		if _, err := CheckLogo(bad); !IsCode(err, EInvalidInput) || !strings.Contains(err.Error(), "(") {
			t.Errorf("CheckLogo(%s) = %v, want a sentence and %s", name, err, EInvalidInput)
		}
	}
}

// An oversized logo is told by the bound it passes: the screens and the
// command line read a file only a byte past it, so its own size is not
// known, and "256 KB, at most 256 KB" reads as no fault at all.
func TestCheckLogoOversizedSentence(t *testing.T) {
	_, err := CheckLogo(make([]byte, MaxLogoBytes+1))
	if !IsCode(err, EInvalidInput) || strings.Contains(err.Error(), "有 256 KB") || !strings.Contains(err.Error(), "256 KB") {
		t.Fatalf("CheckLogo(256 KB + 1 byte) = %v, want the bound passed, not the bound given as the size", err)
	}
}

// A pair just under the bound says so: "4.5:1, at least 4.5:1" reads as
// a refusal of a readable pair.
func TestContrastRefusalNamesARatioUnderTheBound(t *testing.T) {
	_, err := ParseLook("background=#ffffff&number=#777777&text=#000000") // 4.48:1
	if !IsCode(err, ELowContrast) || strings.Contains(err.Error(), "只有 4.5:1") || strings.Contains(err.Error(), "is 4.5:1") {
		t.Fatalf("ParseLook(grey on white) = %v: the ratio it gives must be under the 4.5:1 it asks", err)
	}
}
