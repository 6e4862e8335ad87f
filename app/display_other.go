//go:build !((linux || freebsd || openbsd || netbsd) && !android)

package app

// checkDisplay: Windows and macOS always have a desktop to draw on when
// the program runs at all.
func checkDisplay() error { return nil }
