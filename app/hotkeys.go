package app

import (
	"errors"
	"strings"

	"jiaohao/app/desk"
	"jiaohao/model"
	"jiaohao/screens"
)

// defaultHotkeys leave F1..F5 to the caller's own window (and to the
// bank's programs, where F1 is often help).
const defaultHotkeys = "call=F8,recall=F9,pass=F10,start=F11,finish=F12"

// parseHotkeys reads a caller's hotkeys setting, "action=key,…": empty is
// the default keys, "off" none. It says in one sentence what is wrong.
func parseHotkeys(text string) (map[screens.CallerAction]string, error) {
	text = strings.TrimSpace(text)
	switch strings.ToLower(text) {
	case "off", "none":
		return nil, nil
	case "":
		text = defaultHotkeys
	}
	out := map[screens.CallerAction]string{}
	seen := map[desk.Key]bool{}
	for _, item := range strings.Split(text, ",") {
		name, key, ok := strings.Cut(item, "=")
		if !ok {
			return nil, model.Errorf(model.EInvalidInput, "%s", screens.Text("hotkey.err_format", "Text", text))
		}
		a := screens.CallerAction(strings.ToLower(strings.TrimSpace(name)))
		if !isAction(a) {
			return nil, model.Errorf(model.EInvalidInput, "%s", screens.Text("hotkey.err_action", "Action", strings.TrimSpace(name)))
		}
		if _, dup := out[a]; dup {
			return nil, model.Errorf(model.EInvalidInput, "%s", screens.Text("hotkey.err_action_twice", "Action", a))
		}
		k, err := desk.ParseKey(key)
		if err != nil {
			return nil, keyProblem(err)
		}
		if seen[k] {
			return nil, model.Errorf(model.EInvalidInput, "%s", screens.Text("hotkey.err_twice", "Key", k))
		}
		if own, ok := windowKeys[k]; ok && own != string(a) {
			return nil, model.Errorf(model.EInvalidInput, "%s", screens.Text("hotkey.err_own", "Key", k, "Own", own, "Action", a))
		}
		seen[k], out[a] = true, k.String()
	}
	return out, nil
}

// windowKeys are the caller window's own keys: grabbed for the whole
// desktop they no longer reach the window, so one given to another action
// would make the window's F2 (重呼 F2) call, or take the setup away from
// the compact strip.
var windowKeys = map[desk.Key]string{
	{Name: "F1"}: string(screens.ActionCall), {Name: "F2"}: string(screens.ActionRecall), {Name: "F3"}: string(screens.ActionPass),
	{Name: "F4"}: string(screens.ActionStart), {Name: "F5"}: string(screens.ActionFinish),
	{Mods: desk.ModCtrl | desk.ModShift, Name: "S"}: "setup",
}

func isAction(a screens.CallerAction) bool {
	for _, b := range screens.CallerActions {
		if a == b {
			return true
		}
	}
	return false
}

// keyProblem is the sentence of a key ParseKey refused.
func keyProblem(err error) error {
	var ke *desk.KeyError
	if !errors.As(err, &ke) {
		return err
	}
	key := map[desk.Problem]string{desk.ProblemEmpty: "hotkey.err_empty", desk.ProblemUnknownKey: "hotkey.err_key",
		desk.ProblemUnknownMod: "hotkey.err_mod", desk.ProblemNeedsCtrlAlt: "hotkey.err_ctrlalt",
		desk.ProblemSystemKey: "hotkey.err_system"}[ke.Problem]
	return model.Errorf(model.EInvalidInput, "%s", screens.Text(key, "Text", strings.TrimSpace(ke.Text)))
}

// desktopKeys are the desktop's hotkeys as the caller grabs them.
type desktopKeys struct{ hk desk.Hotkeys }

var _ screens.HotkeySource = desktopKeys{}

// Grab grabs key; a key the system or another program holds is refused
// in one sentence.
func (d desktopKeys) Grab(key string, fire func()) error {
	k, err := desk.ParseKey(key)
	if err != nil {
		return keyProblem(err)
	}
	err = d.hk.Grab(k, fire)
	switch {
	case errors.Is(err, desk.ErrTaken):
		return model.Errorf(model.EConflict, "%s", screens.Text("hotkey.taken", "Key", k))
	case err != nil:
		return model.Errorf(model.EForbidden, "%s", screens.Text("hotkey.unsupported", "Why", err.Error()))
	}
	return nil
}
