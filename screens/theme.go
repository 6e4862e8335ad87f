package screens

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"jiaohao/assets"
)

// Colours shared by the roles. The hall screen is dark for contrast at a
// distance; the other roles use the light theme below.
var (
	colBrand    = color.NRGBA{R: 0x0b, G: 0x5c, B: 0xad, A: 0xff}
	colHallBg   = color.NRGBA{R: 0x0a, G: 0x16, B: 0x28, A: 0xff}
	colHallRow  = color.NRGBA{R: 0x12, G: 0x2a, B: 0x4a, A: 0xff}
	colHallHot  = color.NRGBA{R: 0xb7, G: 0x1c, B: 0x1c, A: 0xff} // model.DefaultLook's highlight: the number on it is 4.66:1
	colHallText = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	colHallNum  = color.NRGBA{R: 0xff, G: 0xd5, B: 0x4f, A: 0xff}
	colDim      = color.NRGBA{R: 0x9e, G: 0xae, B: 0xc4, A: 0xff}
	colWarn     = color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff}
	// colHallWarn is the hall's warning (the lost link, a voice fault): the
	// red of the light screens is 3.2:1 on the hall's navy, unreadable
	// across a hall; this one is 6.6:1.
	colHallWarn = color.NRGBA{R: 0xff, G: 0x6e, B: 0x6e, A: 0xff}
	colOK       = color.NRGBA{R: 0x2e, G: 0x7d, B: 0x32, A: 0xff}
)

// Theme is the program's look: the embedded CJK font for every style, so
// Chinese renders the same on every PC, a fixed light palette (a hall or a
// counter should not change with a clerk's desktop preference) and
// slightly larger text for touch and for clerks glancing across.
type Theme struct{}

var _ fyne.Theme = Theme{}

var cjkFont = fyne.NewStaticResource(assets.CJKFontName+".ttf", assets.CJKFont)

// Color returns the light palette with the brand colour as primary.
func (Theme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	switch n {
	case theme.ColorNamePrimary, theme.ColorNameHyperlink:
		return colBrand
	case theme.ColorNameForegroundOnPrimary:
		return color.White
	}
	return theme.DefaultTheme().Color(n, theme.VariantLight)
}

// Font is the embedded CJK font for every style; it has no bold or
// italic faces, which Chinese signage rarely uses anyway.
func (Theme) Font(fyne.TextStyle) fyne.Resource { return cjkFont }

// Icon is the default icon set.
func (Theme) Icon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }

// SizeNameTouchTarget is the smallest height (and width) of a control a
// customer taps on the kiosk: a fingertip, 9 mm on the panel.
//
// Fyne sizes are logical pixels. On a desktop it scales them by the
// panel's DPI over 120 (its baseline), read from the monitor's physical
// size, and never below 1: a logical pixel is therefore 1/120 inch on a
// dense panel and larger (1/DPI) on the usual kiosk panels under 120 DPI
// (a 21.5" 1080p touch screen has 102). 9 mm at 120 DPI is 42.5 logical
// pixels, so 43 is at least 9 mm on every panel while Fyne's scale follows
// the display (FYNE_SCALE below 1 would shrink it, and nobody sets that on
// a kiosk).
const SizeNameTouchTarget fyne.ThemeSizeName = "jiaohaoTouchTarget"

// touchTargetPx is 9 mm in logical pixels at Fyne's 120 DPI baseline.
const touchTargetPx = 43 // ceil(9 / 25.4 * 120)

// touchTarget is the current theme's fingertip size; a theme that does
// not know the size (0) gets the 9 mm all the same.
func touchTarget() float32 {
	if s := fyne.CurrentApp().Settings().Theme().Size(SizeNameTouchTarget); s > 0 {
		return s
	}
	return touchTargetPx
}

// Size enlarges text a little for readability at arm's length.
func (Theme) Size(n fyne.ThemeSizeName) float32 {
	switch n {
	case SizeNameTouchTarget:
		return touchTargetPx
	case theme.SizeNameText:
		return 16
	case theme.SizeNameHeadingText:
		return 26
	case theme.SizeNameSubHeadingText:
		return 20
	}
	return theme.DefaultTheme().Size(n)
}
