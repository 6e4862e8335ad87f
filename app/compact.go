package app

import (
	"context"
	"errors"

	"fyne.io/fyne/v2"

	"jiaohao/app/desk"
	"jiaohao/model"
	"jiaohao/screens"
)

// prefCompact remembers on this PC whether the caller runs as the compact
// strip. It is not part of the setup (Config): toggling it must not
// restart the role.
const prefCompact = prefPrefix + "caller_compact"

// heldKeys lets one caller at a time hold this PC's hotkeys. The caller of
// a restarted role grabs the same keys while the one before lets them go
// (when its context ends, on a goroutine of its own): without the wait it
// found them taken, by itself.
var heldKeys = make(chan struct{}, 1)

// callerDesk is what the desktop offers a caller: the compact mode
// remembered in p and kept above other programs, and the global hotkeys
// of cfg. openKeys is the desktop's hotkeys (desk.OpenHotkeys); they are
// let go when ctx ends. It runs on the UI goroutine, with w shown.
func callerDesk(ctx context.Context, p fyne.Preferences, w fyne.Window, c *screens.Caller, cfg Config,
	openKeys func() (desk.Hotkeys, error), logf func(string, ...any)) {
	// The menu bar would take a fifth of the strip's height; the setup
	// stays on its keyboard shortcut (Ctrl+Shift+S).
	menu := w.MainMenu()
	c.SetOnCompact(func(on bool) {
		p.SetBool(prefCompact, on)
		if on {
			w.SetMainMenu(nil)
			w.Resize(screens.CompactSize)
		} else {
			w.SetMainMenu(menu)
		}
		if err := desk.KeepAbove(w, on); err != nil && !errors.Is(err, desk.ErrUnsupported) {
			logf("keep the compact caller above other windows: %v", err)
		}
	})
	c.SetCompact(p.Bool(prefCompact))
	keys, err := parseHotkeys(cfg.Hotkeys)
	if err != nil || len(keys) == 0 {
		return // a bad setting never starts (Config.Validate); "off" grabs none
	}
	heldKeys <- struct{}{}
	hk, err := openKeys()
	if err != nil {
		<-heldKeys
		err = model.Errorf(model.EForbidden, "%s", screens.Text("hotkey.unsupported", "Why", err.Error()))
		c.BindHotkeys(refused{err}, keys)
		return
	}
	context.AfterFunc(ctx, func() {
		hk.Close()
		<-heldKeys
	})
	if err := c.BindHotkeys(desktopKeys{hk}, keys); err != nil {
		logf("hotkeys: %v", err)
	}
}

// refused is a desktop without hotkeys: every grab says why once.
type refused struct{ err error }

func (r refused) Grab(string, func()) error { return r.err }
