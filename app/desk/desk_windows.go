//go:build windows

package desk

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"golang.org/x/sys/windows"
)

var (
	user32             = windows.NewLazySystemDLL("user32.dll")
	procSetWindowPos   = user32.NewProc("SetWindowPos")
	procRegisterHotKey = user32.NewProc("RegisterHotKey")
	procUnregisterHot  = user32.NewProc("UnregisterHotKey")
	procGetMessage     = user32.NewProc("GetMessageW")
	procPeekMessage    = user32.NewProc("PeekMessageW")
	procPostThreadMsg  = user32.NewProc("PostThreadMessageW")
)

const (
	hwndTopmost   = ^uintptr(0) // HWND_TOPMOST, (HWND)-1
	hwndNoTopmost = ^uintptr(1) // HWND_NOTOPMOST, (HWND)-2
	swpNoSize     = 0x0001
	swpNoMove     = 0x0002
	swpNoActivate = 0x0010

	wmQuit   = 0x0012
	wmHotkey = 0x0312
	wmGrab   = 0x8000 + 1 // WM_APP+1: a Grab is waiting on the loop's thread
	pmNoRem  = 0x0000

	modAlt      = 0x0001
	modControl  = 0x0002
	modShift    = 0x0004
	modWin      = 0x0008
	modNoRepeat = 0x4000 // holding a key calls one number, not ten

	errHotkeyRegistered = windows.Errno(1409) // ERROR_HOTKEY_ALREADY_REGISTERED
)

// KeepAbove makes w a topmost window (on) or a normal one again.
func KeepAbove(w fyne.Window, on bool) error {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return ErrUnsupported
	}
	var err error = ErrUnsupported
	nw.RunNative(func(ctx any) {
		wc, ok := ctx.(driver.WindowsWindowContext)
		if !ok || wc.HWND == 0 {
			return
		}
		after := hwndNoTopmost
		if on {
			after = hwndTopmost
		}
		r, _, e := procSetWindowPos.Call(wc.HWND, after, 0, 0, 0, 0, swpNoMove|swpNoSize|swpNoActivate)
		err = nil
		if r == 0 {
			err = fmt.Errorf("SetWindowPos: %w", e)
		}
	})
	return err
}

// winMsg is the Win32 MSG structure.
type winMsg struct {
	hwnd    uintptr
	message uint32
	wParam  uintptr
	lParam  uintptr
	time    uint32
	pt      struct{ x, y int32 }
	private uint32
}

// winKeys registers hotkeys for its own thread: Windows posts WM_HOTKEY to
// the message queue of the thread that called RegisterHotKey, so one
// locked OS thread registers them all and runs the loop that reads them.
type winKeys struct {
	thread uint32
	mu     sync.Mutex
	reqs   []grabReq
	done   chan struct{}
}

type grabReq struct {
	key   Key
	fire  func()
	reply chan error
}

func openHotkeys() (Hotkeys, error) {
	k := &winKeys{done: make(chan struct{})}
	ready := make(chan error, 1)
	go k.loop(ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return k, nil
}

func (k *winKeys) loop(ready chan<- error) {
	runtime.LockOSThread() // the hotkeys belong to this thread; it never serves another goroutine
	defer close(k.done)
	if err := procPeekMessage.Find(); err != nil {
		ready <- fmt.Errorf("user32: %w", err)
		return
	}
	var m winMsg
	// The first call makes the thread's message queue, so that Grab can
	// post to it.
	procPeekMessage.Call(uintptr(unsafe.Pointer(&m)), 0, 0, 0, pmNoRem)
	k.thread = windows.GetCurrentThreadId()
	ready <- nil
	fires := map[uintptr]func(){}
	defer func() {
		for id := range fires {
			procUnregisterHot.Call(0, id)
		}
	}()
	for {
		r, _, _ := procGetMessage.Call(uintptr(unsafe.Pointer(&m)), 0, 0, 0)
		if int32(r) <= 0 { // WM_QUIT, or an error
			return
		}
		switch m.message {
		case wmHotkey:
			if f := fires[m.wParam]; f != nil {
				f()
			}
		case wmGrab:
			k.mu.Lock()
			reqs := k.reqs
			k.reqs = nil
			k.mu.Unlock()
			for _, q := range reqs {
				id := uintptr(len(fires) + 1)
				err := register(id, q.key)
				if err == nil {
					fires[id] = q.fire
				}
				q.reply <- err
			}
		}
	}
}

func register(id uintptr, key Key) error {
	vk := uintptr(key.Name[0]) // 'A'..'Z' and '0'..'9' are their own virtual keys
	if n := key.fkey(); n > 0 {
		vk = uintptr(0x70 + n - 1) // VK_F1 on
	}
	mods := uintptr(modNoRepeat)
	for _, p := range []struct {
		m Mod
		w uintptr
	}{{ModCtrl, modControl}, {ModAlt, modAlt}, {ModShift, modShift}, {ModSuper, modWin}} {
		if key.Mods&p.m != 0 {
			mods |= p.w
		}
	}
	r, _, e := procRegisterHotKey.Call(0, id, mods, vk)
	if r != 0 {
		return nil
	}
	if errors.Is(e, errHotkeyRegistered) {
		return fmt.Errorf("%s: %w", key, ErrTaken)
	}
	return fmt.Errorf("RegisterHotKey %s: %w", key, e)
}

func (k *winKeys) Grab(key Key, fire func()) error {
	q := grabReq{key: key, fire: fire, reply: make(chan error, 1)}
	k.mu.Lock()
	k.reqs = append(k.reqs, q)
	k.mu.Unlock()
	if r, _, e := procPostThreadMsg.Call(uintptr(k.thread), wmGrab, 0, 0); r == 0 {
		return fmt.Errorf("PostThreadMessage: %w", e)
	}
	select {
	case err := <-q.reply:
		return err
	case <-k.done:
		return ErrUnsupported
	}
}

// Close ends the loop, which unregisters every key.
func (k *winKeys) Close() error {
	procPostThreadMsg.Call(uintptr(k.thread), wmQuit, 0, 0)
	<-k.done
	return nil
}
