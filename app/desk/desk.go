// Package desk is what a clerk's desktop offers the compact caller beyond a
// plain window: keeping a window above other programs, and global hotkeys
// that reach the caller while another program (the bank's own core system)
// has the focus. Each platform implements it in its own file: X11 through
// github.com/jezek/xgb, Windows through user32; elsewhere both say they are
// not available. The screens never see this package: the program hands
// them what it offers.
package desk

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Mod is a set of modifier keys held with a hotkey.
type Mod uint8

const (
	ModCtrl Mod = 1 << iota
	ModAlt
	ModShift
	ModSuper // the Windows key
)

var modNames = []struct {
	mod   Mod
	names []string
}{
	{ModCtrl, []string{"ctrl", "control"}},
	{ModAlt, []string{"alt"}},
	{ModShift, []string{"shift"}},
	{ModSuper, []string{"super", "win", "meta"}},
}

// Key is one global hotkey: a function key F1..F24, or a letter or digit
// held with Ctrl or Alt.
type Key struct {
	Mods Mod
	Name string // "F8", "K", "5"
}

// String is the key as ParseKey reads it, e.g. "ctrl+alt+K".
func (k Key) String() string {
	var parts []string
	for _, m := range modNames {
		if k.Mods&m.mod != 0 {
			parts = append(parts, m.names[0])
		}
	}
	return strings.Join(append(parts, k.Name), "+")
}

// fkey is n for the function key Fn, or 0.
func (k Key) fkey() int {
	if len(k.Name) < 2 || k.Name[0] != 'F' {
		return 0
	}
	n, err := strconv.Atoi(k.Name[1:])
	if err != nil || n < 1 || n > 24 {
		return 0
	}
	return n
}

// Problem is why a hotkey's text is not a key.
type Problem int

const (
	ProblemEmpty      Problem = iota + 1 // nothing given
	ProblemUnknownKey                    // not F1..F24, a letter or a digit
	ProblemUnknownMod                    // a modifier other than ctrl, alt, shift, super
	// ProblemNeedsCtrlAlt: a letter or digit needs both ctrl and alt.
	// Alone it fires while typing; with one of them it is a shortcut of
	// the program in front (ctrl+C copies, alt+F opens its menu), which
	// the bank's own system on the clerk's PC would lose.
	ProblemNeedsCtrlAlt
	ProblemSystemKey // alt+F4 closes the program in front
)

// KeyError says which text is not a hotkey, and why.
type KeyError struct {
	Text    string
	Problem Problem
}

func (e *KeyError) Error() string {
	why := map[Problem]string{
		ProblemEmpty:        "no key given",
		ProblemUnknownKey:   "the key is not F1..F24, a letter or a digit",
		ProblemUnknownMod:   "a modifier is not ctrl, alt, shift or super",
		ProblemNeedsCtrlAlt: "a letter or digit needs both ctrl and alt, or it takes a key of the program in front",
		ProblemSystemKey:    "alt+F4 closes the program in front",
	}[e.Problem]
	return fmt.Sprintf("hotkey %q: %s", e.Text, why)
}

// ParseKey reads "F8", "ctrl+alt+K", "Shift+F2" (any case, spaces allowed).
func ParseKey(text string) (Key, error) {
	bad := func(p Problem) (Key, error) { return Key{}, &KeyError{Text: text, Problem: p} }
	parts := strings.Split(text, "+")
	name := strings.ToUpper(strings.TrimSpace(parts[len(parts)-1]))
	if name == "" {
		return bad(ProblemEmpty)
	}
	var k Key
	for _, p := range parts[:len(parts)-1] {
		m, ok := modOf(strings.ToLower(strings.TrimSpace(p)))
		if !ok {
			return bad(ProblemUnknownMod)
		}
		k.Mods |= m
	}
	k.Name = name
	switch {
	case k.fkey() > 0:
		k.Name = "F" + strconv.Itoa(k.fkey()) // "F08" is F8
		if k.Name == "F4" && k.Mods&ModAlt != 0 {
			return bad(ProblemSystemKey)
		}
	case len(name) == 1 && (name[0] >= 'A' && name[0] <= 'Z' || name[0] >= '0' && name[0] <= '9'):
		if k.Mods&(ModCtrl|ModAlt) != ModCtrl|ModAlt {
			return bad(ProblemNeedsCtrlAlt)
		}
	default:
		return bad(ProblemUnknownKey)
	}
	return k, nil
}

func modOf(name string) (Mod, bool) {
	for _, m := range modNames {
		for _, n := range m.names {
			if n == name {
				return m.mod, true
			}
		}
	}
	return 0, false
}

// ErrTaken is a hotkey the system or another program already holds.
var ErrTaken = errors.New("the hotkey is already taken by another program")

// ErrUnsupported is a desktop without the feature asked for.
var ErrUnsupported = errors.New("not available on this desktop")

// Hotkeys grabs keys for the whole desktop.
type Hotkeys interface {
	// Grab makes every press of k run fire (on a goroutine of its own,
	// not the UI's), whichever program has the focus. A key the system or
	// another program holds is ErrTaken, and nothing is grabbed.
	Grab(k Key, fire func()) error
	// Close lets every key go.
	Close() error
}

// OpenHotkeys connects to this desktop's hotkeys.
func OpenHotkeys() (Hotkeys, error) { return openHotkeys() }
