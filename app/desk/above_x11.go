//go:build (linux || freebsd || openbsd || netbsd) && !android

package desk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// KeepAbove keeps w above other programs' windows (on) or lets it back
// among them. w must be shown: an X window exists only then.
func KeepAbove(w fyne.Window, on bool) error {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return ErrUnsupported
	}
	var xid uintptr
	nw.RunNative(func(ctx any) {
		if x, ok := ctx.(driver.X11WindowContext); ok {
			xid = x.WindowHandle
		}
	})
	if xid == 0 {
		return ErrUnsupported // Wayland, or a window not shown yet
	}
	return KeepAboveX(uint32(xid), on)
}

// KeepAboveX is KeepAbove for the X window xid on the display $DISPLAY
// names. It asks the window manager (the EWMH _NET_WM_STATE message to the
// root window) and also writes the state itself and raises the window, so
// the strip stays above with a window manager and without one.
func KeepAboveX(xid uint32, on bool) error {
	conn, err := xgb.NewConn()
	if err != nil {
		return fmt.Errorf("connect to X: %w", err)
	}
	defer conn.Close()
	win := xproto.Window(xid)
	state, err := atom(conn, "_NET_WM_STATE")
	if err != nil {
		return err
	}
	above, err := atom(conn, "_NET_WM_STATE_ABOVE")
	if err != nil {
		return err
	}
	atoms, err := windowAtoms(conn, win, state)
	if err != nil {
		return err
	}
	atoms = slices.DeleteFunc(atoms, func(a xproto.Atom) bool { return a == above })
	action := uint32(0) // _NET_WM_STATE_REMOVE
	if on {
		atoms, action = append(atoms, above), 1 // _NET_WM_STATE_ADD
	}
	data := make([]byte, 4*len(atoms))
	for i, a := range atoms {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(a))
	}
	// xgb speaks the client's byte order, which it sets as little-endian.
	if err := xproto.ChangePropertyChecked(conn, xproto.PropModeReplace, win, state, xproto.AtomAtom, 32,
		uint32(len(atoms)), data).Check(); err != nil {
		return fmt.Errorf("set _NET_WM_STATE: %w", err)
	}
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	msg := xproto.ClientMessageEvent{Format: 32, Window: win, Type: state,
		Data: xproto.ClientMessageDataUnionData32New([]uint32{action, uint32(above), 0, 1, 0})} // 1: an application asks
	if err := xproto.SendEventChecked(conn, false, root,
		xproto.EventMaskSubstructureRedirect|xproto.EventMaskSubstructureNotify, string(msg.Bytes())).Check(); err != nil {
		return fmt.Errorf("ask the window manager: %w", err)
	}
	if on {
		if err := xproto.ConfigureWindowChecked(conn, win, xproto.ConfigWindowStackMode,
			[]uint32{xproto.StackModeAbove}).Check(); err != nil {
			return fmt.Errorf("raise the window: %w", err)
		}
	}
	return nil
}

// IsAboveX reports whether the X window xid has _NET_WM_STATE_ABOVE.
func IsAboveX(xid uint32) (bool, error) {
	conn, err := xgb.NewConn()
	if err != nil {
		return false, fmt.Errorf("connect to X: %w", err)
	}
	defer conn.Close()
	state, err := atom(conn, "_NET_WM_STATE")
	if err != nil {
		return false, err
	}
	above, err := atom(conn, "_NET_WM_STATE_ABOVE")
	if err != nil {
		return false, err
	}
	atoms, err := windowAtoms(conn, xproto.Window(xid), state)
	return slices.Contains(atoms, above), err
}

func atom(conn *xgb.Conn, name string) (xproto.Atom, error) {
	r, err := xproto.InternAtom(conn, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0, fmt.Errorf("atom %s: %w", name, err)
	}
	return r.Atom, nil
}

// windowAtoms is the list of atoms in win's property prop.
func windowAtoms(conn *xgb.Conn, win xproto.Window, prop xproto.Atom) ([]xproto.Atom, error) {
	r, err := xproto.GetProperty(conn, false, win, prop, xproto.AtomAtom, 0, 64).Reply()
	if err != nil {
		return nil, fmt.Errorf("read the window's state: %w", err)
	}
	if r.Format != 32 && len(r.Value) > 0 {
		return nil, errors.New("the window's state is not a list of atoms")
	}
	var out []xproto.Atom
	for i := 0; i+4 <= len(r.Value); i += 4 {
		out = append(out, xproto.Atom(binary.LittleEndian.Uint32(r.Value[i:])))
	}
	return out, nil
}
