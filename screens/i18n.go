package screens

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"

	"jiaohao/assets"
	"jiaohao/model"
)

// Languages the program ships, Chinese first (the default).
var Languages = []string{"zh", "en"}

// SetLanguage loads the translations of code ("zh" or "en") into Fyne's
// lang package. Fyne picks translations by the PC's locale, so the chosen
// language is also registered under that locale: the branch's choice wins
// over however the PC happens to be set up.
func SetLanguage(code string) error {
	code = strings.ToLower(strings.TrimSpace(code))
	if code == "" {
		code = "zh"
	}
	data, err := assets.Lang.ReadFile("lang/" + code + ".json")
	if err != nil {
		return model.Errorf(model.EInvalidInput, "unknown language %q (use zh or en)", code)
	}
	sys := lang.SystemLocale()
	for _, l := range []fyne.Locale{fyne.Locale(code), sys, fyne.Locale(strings.SplitN(string(sys), "-", 2)[0]), "en"} {
		if err := lang.AddTranslationsForLocale(data, l); err != nil {
			return fmt.Errorf("load %s translations: %w", code, err)
		}
	}
	return nil
}

// tr translates a key of assets/lang/*.json; data fills {{.Name}} fields.
func tr(key string, data ...map[string]any) string {
	if len(data) > 0 {
		return lang.LocalizeKey(key, key, data[0])
	}
	return lang.LocalizeKey(key, key)
}

// kv builds template data for tr from alternating names and values.
func kv(pairs ...any) map[string]any {
	m := make(map[string]any, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i].(string)] = pairs[i+1]
	}
	return m
}

// statusText names a ticket status in the chosen language.
func statusText(s model.Status) string { return tr("status." + s.String()) }

// windowStatusText names a window status in the chosen language.
func windowStatusText(s model.WindowStatus) string { return tr("window." + s.String()) }

// errText is the one sentence shown for err: the domain message, never
// internals or a stack trace.
func errText(err error) string {
	if model.IsCode(err, model.EUnavailable) {
		// Staff can act on the cause (the database's disk is full, the
		// host does not answer), so it follows the plain sentence.
		return tr("err.unavailable") + " — " + model.ErrorMessage(err)
	}
	return model.ErrorMessage(err)
}

// customerErrText is errText for a customer's screen: an unreachable queue
// is only "try again shortly", never a cause meant for staff.
func customerErrText(err error) string {
	if model.IsCode(err, model.EUnavailable) {
		return tr("err.unavailable")
	}
	return errText(err)
}

// Text translates a key for the program around the screens (window titles,
// menus); pairs are alternating names and values for {{.Name}} fields.
func Text(key string, pairs ...any) string { return tr(key, kv(pairs...)) }

// Title is the window title of a role (a caller's names its window).
func Title(role model.Role, window int) string {
	spec, _ := role.Spec()
	return Text(spec.Title, "N", window)
}

// roleName is a role's name in the chosen language; a name outside the
// table is shown as it is.
func roleName(r model.Role) string {
	if spec, ok := r.Spec(); ok {
		return tr(spec.Label)
	}
	return string(r)
}

// numberText is a ticket's number as the hall and the caller show it: a
// ticket put back in line after it was passed carries its mark, "A012 重叫"
// (seed 000 §6).
func numberText(t model.Ticket) string {
	if t.Requeued > 0 {
		return t.Number + " " + tr("ticket.requeued")
	}
	return t.Number
}
