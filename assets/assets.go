// Package assets owns the files embedded in the binary: the CJK font that
// the screens and the PDF reports use, so nothing depends on the PC's
// fonts; the translations of the user interface; and the program icon.
package assets

import (
	"embed"
)

// CJKFont is Droid Sans Fallback (Apache-2.0, from Debian's
// fonts-droid-fallback; see fonts/NOTICE): a TrueType font covering
// Chinese and Latin.
//
//go:embed fonts/DroidSansFallbackFull.ttf
var CJKFont []byte

// CJKFontName is the family name the font is registered under.
const CJKFontName = "DroidSansFallback"

// Lang holds the translations, lang/zh.json and lang/en.json, in the
// format of fyne.io/fyne/v2/lang (go-i18n JSON: key to text, with
// {{.Name}} fields).
//
//go:embed lang/*.json
var Lang embed.FS

// Icon is the program icon, a 512×512 PNG.
//
//go:embed icon.png
var Icon []byte
