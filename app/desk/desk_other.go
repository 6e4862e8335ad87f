//go:build !windows && !((linux || freebsd || openbsd || netbsd) && !android)

package desk

import "fyne.io/fyne/v2"

// KeepAbove is not available here (macOS, mobile): the strip is a normal
// window.
func KeepAbove(fyne.Window, bool) error { return ErrUnsupported }

func openHotkeys() (Hotkeys, error) { return nil, ErrUnsupported }
