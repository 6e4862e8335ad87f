package app

import (
	"os"
	"slices"
	"strings"

	"fyne.io/fyne/v2"

	"jiaohao/model"
	"jiaohao/printing"
	"jiaohao/screens"
)

// Config is how this PC runs: the setup form's values, saved in the Fyne
// preferences so the next start goes straight to work. Flags override it
// for one run, the installer's values and settings files become it.
type Config screens.SetupValues

// prefPrefix keys the setup in the Fyne preferences.
const prefPrefix = "jiaohao."

// LoadConfig reads the saved configuration; ok is false when none was
// ever saved (the setup window is due).
func LoadConfig(p fyne.Preferences) (c Config, ok bool) {
	c = Config{
		Role:            model.Role(p.String(prefPrefix + "role")),
		Mode:            p.StringWithFallback(prefPrefix+"mode", screens.ModeHost),
		Window:          p.IntWithFallback(prefPrefix+"window", 1),
		DSN:             p.String(prefPrefix + "dsn"),
		Branch:          p.String(prefPrefix + "branch"),
		Peer:            p.String(prefPrefix + "peer"),
		Token:           p.String(prefPrefix + "token"),
		PeerFingerprint: p.String(prefPrefix + "peer_fingerprint"),
		Lang:            p.StringWithFallback(prefPrefix+"lang", "zh"),
		Printer:         p.String(prefPrefix + "printer"),
		LED:             p.String(prefPrefix + "led"),
		HallLayout:      model.HallLayout(p.String(prefPrefix + "hall_layout")),
		Media:           p.String(prefPrefix + "media"),
		HallArea:        p.String(prefPrefix + "hall_area"),
		Hotkeys:         p.String(prefPrefix + "hotkeys"),
	}
	return c, c.Role != ""
}

// SaveConfig stores c after checking it.
func SaveConfig(p fyne.Preferences, c Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	p.SetString(prefPrefix+"role", string(c.Role))
	p.SetString(prefPrefix+"mode", c.Mode)
	p.SetInt(prefPrefix+"window", c.Window)
	p.SetString(prefPrefix+"dsn", c.DSN)
	p.SetString(prefPrefix+"branch", c.Branch)
	p.SetString(prefPrefix+"peer", c.Peer)
	p.SetString(prefPrefix+"token", c.Token)
	p.SetString(prefPrefix+"peer_fingerprint", c.PeerFingerprint)
	p.SetString(prefPrefix+"lang", c.Lang)
	p.SetString(prefPrefix+"printer", c.Printer)
	p.SetString(prefPrefix+"led", c.LED)
	p.SetString(prefPrefix+"hall_layout", string(c.HallLayout))
	p.SetString(prefPrefix+"media", c.Media)
	p.SetString(prefPrefix+"hall_area", c.HallArea)
	p.SetString(prefPrefix+"hotkeys", c.Hotkeys)
	return nil
}

// Validate says in one sentence, in the chosen language, what is missing
// or wrong; device addresses are parsed the way their drivers will.
func (c Config) Validate() error {
	bad := func(key string) error { return model.Errorf(model.EInvalidInput, "%s", screens.Text(key)) }
	role, known := c.Role.Spec()
	switch {
	case !known:
		return bad("setup.err_role")
	case !role.Desktop():
		return model.Errorf(model.EInvalidInput, "%s", screens.Text("setup.err_page_role", "Page", role.Page))
	case role.Window && c.Window <= 0:
		return bad("setup.err_window")
	case role.HeadOffice && c.Mode != screens.ModePeer:
		return bad("setup.err_hq_peer") // it reads every branch through the host serving them all
	case c.Mode == screens.ModePeer && (!strings.HasPrefix(c.Peer, "http://") && !strings.HasPrefix(c.Peer, "https://")):
		return bad("setup.err_peer")
	case c.Mode == screens.ModePeer && strings.TrimSpace(c.Token) == "":
		return bad("setup.err_token")
	case c.Mode == screens.ModePeer && c.PeerFingerprint != "" && (!strings.HasPrefix(c.Peer, "https://") || !validFingerprint(c.PeerFingerprint)):
		return bad("setup.err_fingerprint")
	case c.Mode == screens.ModeDB && strings.TrimSpace(c.DSN) == "":
		return bad("setup.err_dsn")
	case c.Branch != "" && !validBranchCode(c.Branch):
		return bad("setup.err_branch")
	case c.Mode != screens.ModeHost && c.Mode != screens.ModePeer && c.Mode != screens.ModeDB:
		return bad("setup.err_mode")
	case !slices.Contains(screens.Languages, c.Lang):
		return bad("setup.err_lang")
	case c.HallLayout != "" && !slices.Contains(model.HallLayouts, c.HallLayout):
		return bad("setup.err_layout")
	case c.HallArea != "" && model.CheckName("等候区名称", "area name", c.HallArea) != nil:
		return bad("setup.err_hall_area")
	}
	for _, d := range [][2]string{{"printer", c.Printer}, {"led", c.LED}} {
		if d[1] == "" {
			continue
		}
		if err := checkDevice(d[0], d[1]); err != nil {
			return err
		}
	}
	_, err := parseHotkeys(c.Hotkeys)
	return err
}

// checkDevice parses a device address the way the driver will.
func checkDevice(kind, addr string) error {
	if kind == "led" {
		_, err := printing.ParseLEDAddress(addr)
		return err
	}
	_, err := printing.OpenPrinter(addr) // parses only; nothing is opened
	return err
}

// validBranchCode accepts a branch code as the database keeps it.
func validBranchCode(code string) bool {
	n, err := model.NormalBranchCode(code)
	return err == nil && n == code
}

// validFingerprint accepts a SHA-256 in hex, with or without colons.
func validFingerprint(s string) bool {
	h := strings.NewReplacer(":", "", " ", "", "-", "").Replace(strings.TrimSpace(s))
	if len(h) != 64 {
		return false
	}
	for _, c := range h {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// prefsSetup is the setup form's keeper: it keeps the form's values as
// this PC's Config in the preferences p, and reads and writes them as a
// settings file.
type prefsSetup struct{ p fyne.Preferences }

var _ screens.SetupFiles = prefsSetup{}

func (s prefsSetup) Load() screens.SetupValues {
	c, _ := LoadConfig(s.p)
	return screens.SetupValues(c)
}

// Keep saves the form's values, the hotkeys it carries among them (the
// PC's own, or an imported file's). The image folder typed there must be
// a folder now: a mistyped path would leave the hall's media area empty
// without a word. (A saved setup is not held to it at start: a folder on
// a share that is down at boot only leaves the pictures out.)
func (s prefsSetup) Keep(v screens.SetupValues) error {
	if v.Media != "" {
		if fi, err := os.Stat(v.Media); err != nil || !fi.IsDir() {
			return model.Errorf(model.EInvalidInput, "%s", screens.Text("setup.err_media", "Path", v.Media))
		}
	}
	return SaveConfig(s.p, Config(v))
}

func (prefsSetup) Encode(v screens.SetupValues) ([]byte, error) { return EncodePCSettings(Config(v)) }

func (prefsSetup) Decode(b []byte) (screens.SetupValues, error) {
	c, err := DecodePCSettings(b)
	return screens.SetupValues(c), err
}
