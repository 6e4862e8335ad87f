// Package assets owns the files embedded in the binary: the CJK font that
// the screens and the PDF reports use, so nothing depends on the PC's fonts.
package assets

import _ "embed"

// CJKFont is Droid Sans Fallback (Apache-2.0, from Debian's
// fonts-droid-fallback): a TrueType font covering Chinese and Latin.
//
//go:embed fonts/DroidSansFallbackFull.ttf
var CJKFont []byte

// CJKFontName is the family name the font is registered under.
const CJKFontName = "DroidSansFallback"
