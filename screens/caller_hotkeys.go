package screens

import (
	"errors"
	"slices"
	"strings"
)

// HotkeySource grabs keys for the whole desktop, so a clerk calls the next
// number while the bank's own system has the focus. The program gives the
// desktop's (X11, Windows); tests give a fake one.
type HotkeySource interface {
	// Grab makes every press of key run fire, on any goroutine; a key it
	// cannot have (the system or another program holds it, or the text is
	// not a key) is one sentence, and nothing is grabbed.
	Grab(key string, fire func()) error
}

// BindHotkeys grabs the key of each action in keys from src. A press runs
// the action on the UI goroutine exactly as its button's tap (Trigger),
// so it does nothing while the button is off. Each key src refuses stays
// unbound and its sentence shows on the caller; the others work. It runs
// on the UI goroutine.
func (c *Caller) BindHotkeys(src HotkeySource, keys map[CallerAction]string) error {
	var errs []error
	var msgs []string
	for _, a := range CallerActions {
		key := keys[a]
		if key == "" {
			continue
		}
		if err := src.Grab(key, func() { onUI(func() { c.Trigger(a) }) }); err != nil {
			errs = append(errs, err)
			if m := errText(err); !slices.Contains(msgs, m) { // a desktop without hotkeys says so once
				msgs = append(msgs, m)
			}
		}
	}
	if len(msgs) > 0 {
		c.msg.SetText(strings.Join(msgs, " "))
		c.refresh()
	}
	return errors.Join(errs...)
}
