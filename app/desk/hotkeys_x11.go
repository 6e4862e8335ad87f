//go:build (linux || freebsd || openbsd || netbsd) && !android

package desk

import (
	"errors"
	"fmt"
	"io"
	"log"
	"sync"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// xgb logs to stderr what it also returns (a PC without ~/.Xauthority
// logs two lines on every connection); the errors returned are enough.
func init() { xgb.Logger = log.New(io.Discard, "", 0) }

// x11Keys grabs keys on the root window of its own X connection: the X
// server then sends their presses to it, whichever window has the focus.
// A key another client grabbed first is refused with BadAccess.
type x11Keys struct {
	conn *xgb.Conn
	root xproto.Window

	mu       sync.Mutex
	fire     map[grabbed]func()
	released map[xproto.Keycode]xproto.Timestamp // to tell autorepeat from a press
}

type grabbed struct {
	code xproto.Keycode
	mods uint16
}

// Caps Lock and Num Lock are held without the clerk thinking of them: a
// key is grabbed with and without each, and they are ignored on a press.
var lockMasks = []uint16{0, xproto.ModMaskLock, xproto.ModMask2, xproto.ModMaskLock | xproto.ModMask2}

// keyMods are the modifier keys of a press's state. The rest (mouse
// buttons held, the keyboard layout group) is no part of a grab: the
// server hands the press over with them, and they must not hide its key.
const keyMods = xproto.ModMaskShift | xproto.ModMaskLock | xproto.ModMaskControl | xproto.ModMask1 |
	xproto.ModMask2 | xproto.ModMask3 | xproto.ModMask4 | xproto.ModMask5

func openHotkeys() (Hotkeys, error) {
	conn, err := xgb.NewConn()
	if err != nil {
		return nil, fmt.Errorf("connect to X: %w", err)
	}
	k := &x11Keys{conn: conn, root: xproto.Setup(conn).DefaultScreen(conn).Root,
		fire: map[grabbed]func(){}, released: map[xproto.Keycode]xproto.Timestamp{}}
	go k.loop()
	return k, nil
}

func (k *x11Keys) Grab(key Key, fire func()) error {
	code, err := k.keycode(key)
	if err != nil {
		return err
	}
	mods := x11Mods(key.Mods)
	for i, lock := range lockMasks {
		err := xproto.GrabKeyChecked(k.conn, false, k.root, mods|lock, code, xproto.GrabModeAsync, xproto.GrabModeAsync).Check()
		if err == nil {
			continue
		}
		for _, undo := range lockMasks[:i] {
			_ = xproto.UngrabKeyChecked(k.conn, code, k.root, mods|undo).Check()
		}
		var access xproto.AccessError
		if errors.As(err, &access) {
			return fmt.Errorf("%s: %w", key, ErrTaken)
		}
		return fmt.Errorf("grab %s: %w", key, err)
	}
	k.mu.Lock()
	k.fire[grabbed{code, mods}] = fire
	k.mu.Unlock()
	return nil
}

// Close lets every key go and ends the connection. Ending it alone would
// leave the server to drop the grabs whenever it gets to it: the next
// caller on this PC (a restarted role) could find its keys still held.
// The checked ungrab returns once the server has released them.
func (k *x11Keys) Close() error {
	err := xproto.UngrabKeyChecked(k.conn, xproto.GrabAny, k.root, xproto.ModMaskAny).Check()
	k.conn.Close()
	if err != nil {
		return fmt.Errorf("let the hotkeys go: %w", err)
	}
	return nil
}

func (k *x11Keys) loop() {
	for {
		ev, err := k.conn.WaitForEvent()
		if ev == nil && err == nil {
			return // closed
		}
		switch e := ev.(type) {
		case xproto.KeyReleaseEvent:
			k.mu.Lock()
			k.released[e.Detail] = e.Time
			k.mu.Unlock()
		case xproto.KeyPressEvent:
			k.mu.Lock()
			// Autorepeat sends a release and a press at the same moment:
			// holding a key calls one number, not ten.
			repeat := k.released[e.Detail] == e.Time && e.Time != 0
			fire := k.fire[grabbed{e.Detail, e.State & keyMods &^ (xproto.ModMaskLock | xproto.ModMask2)}]
			k.mu.Unlock()
			if fire != nil && !repeat {
				fire()
			}
		}
	}
}

func x11Mods(m Mod) uint16 {
	var out uint16
	for _, p := range []struct {
		m Mod
		x uint16
	}{{ModCtrl, xproto.ModMaskControl}, {ModAlt, xproto.ModMask1}, {ModShift, xproto.ModMaskShift}, {ModSuper, xproto.ModMask4}} {
		if m&p.m != 0 {
			out |= p.x
		}
	}
	return out
}

// keysym is the X keysym of key (X11/keysymdef.h): XK_F1 on, or the
// lower-case letter or digit.
func keysym(key Key) xproto.Keysym {
	if n := key.fkey(); n > 0 {
		return xproto.Keysym(0xffbe + n - 1)
	}
	c := key.Name[0]
	if c >= 'A' && c <= 'Z' {
		c += 'a' - 'A'
	}
	return xproto.Keysym(c)
}

// keycode is the key of this keyboard that types key's keysym.
func (k *x11Keys) keycode(key Key) (xproto.Keycode, error) {
	setup := xproto.Setup(k.conn)
	first := setup.MinKeycode
	r, err := xproto.GetKeyboardMapping(k.conn, first, byte(setup.MaxKeycode-first+1)).Reply()
	if err != nil {
		return 0, fmt.Errorf("read the keyboard: %w", err)
	}
	want, per := keysym(key), int(r.KeysymsPerKeycode)
	for i := 0; per > 0 && i < len(r.Keysyms); i++ {
		if r.Keysyms[i] == want {
			return first + xproto.Keycode(i/per), nil
		}
	}
	return 0, fmt.Errorf("%s: this keyboard has no such key: %w", key, ErrUnsupported)
}
