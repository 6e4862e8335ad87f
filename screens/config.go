package screens

import (
	"strings"

	"fyne.io/fyne/v2"

	"jiaohao/model"
)

// How a PC reaches the queue.
const (
	ModeHost = "host" // this PC hosts the branch: embedded database + peer server
	ModePeer = "peer" // connect to a hosting PC by address and token
	ModeDB   = "db"   // connect straight to a database server
)

// Config is how this PC runs, saved in the Fyne preferences so the next
// start goes straight to work. Flags override it for one run.
type Config struct {
	Role   model.Role
	Mode   string
	Window int    // caller only
	DSN    string // ModeDB; ModeHost may name its own database too
	Peer   string // ModePeer: http://host:port
	Token  string // ModePeer
	// PeerFingerprint pins the SHA-256 of an https:// host's own
	// (self-signed) certificate; empty trusts the system's CAs.
	PeerFingerprint string `json:",omitempty"`
	Lang            string
	// Devices plugged into this PC, as addresses (see the README): the
	// kiosk's own ticket printer, which wins over the branch's printer
	// setting, and an LED bar. Empty: none of its own.
	Printer string `json:",omitempty"`
	LED     string `json:",omitempty"`
}

// CheckDevice, when set, checks a device address of kind "printer" or
// "led" and says in one sentence what is wrong with it. The program sets it
// (the parsers live with the device drivers); without it any address is
// taken and a wrong one is reported when the device is opened.
var CheckDevice func(kind, addr string) error

const prefPrefix = "jiaohao."

// LoadConfig reads the saved configuration; ok is false when none was
// ever saved (the setup window is due).
func LoadConfig(p fyne.Preferences) (c Config, ok bool) {
	c = Config{
		Role:            model.Role(p.String(prefPrefix + "role")),
		Mode:            p.StringWithFallback(prefPrefix+"mode", ModeHost),
		Window:          p.IntWithFallback(prefPrefix+"window", 1),
		DSN:             p.String(prefPrefix + "dsn"),
		Peer:            p.String(prefPrefix + "peer"),
		Token:           p.String(prefPrefix + "token"),
		PeerFingerprint: p.String(prefPrefix + "peer_fingerprint"),
		Lang:            p.StringWithFallback(prefPrefix+"lang", "zh"),
		Printer:         p.String(prefPrefix + "printer"),
		LED:             p.String(prefPrefix + "led"),
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
	p.SetString(prefPrefix+"peer", c.Peer)
	p.SetString(prefPrefix+"token", c.Token)
	p.SetString(prefPrefix+"peer_fingerprint", c.PeerFingerprint)
	p.SetString(prefPrefix+"lang", c.Lang)
	p.SetString(prefPrefix+"printer", c.Printer)
	p.SetString(prefPrefix+"led", c.LED)
	return nil
}

// Validate says in one sentence what is missing or wrong.
func (c Config) Validate() error {
	bad := func(key string) error { return model.Errorf(model.EInvalidInput, "%s", tr(key)) }
	role, known := c.Role.Spec()
	switch {
	case !known:
		return bad("setup.err_role")
	case role.Window && c.Window <= 0:
		return bad("setup.err_window")
	case c.Mode == ModePeer && (!strings.HasPrefix(c.Peer, "http://") && !strings.HasPrefix(c.Peer, "https://")):
		return bad("setup.err_peer")
	case c.Mode == ModePeer && strings.TrimSpace(c.Token) == "":
		return bad("setup.err_token")
	case c.Mode == ModePeer && c.PeerFingerprint != "" && (!strings.HasPrefix(c.Peer, "https://") || !validFingerprint(c.PeerFingerprint)):
		return bad("setup.err_fingerprint")
	case c.Mode == ModeDB && strings.TrimSpace(c.DSN) == "":
		return bad("setup.err_dsn")
	case c.Mode != ModeHost && c.Mode != ModePeer && c.Mode != ModeDB:
		return bad("setup.err_mode")
	case !contains(Languages, c.Lang):
		return bad("setup.err_lang")
	}
	for _, d := range [][2]string{{"printer", c.Printer}, {"led", c.LED}} {
		if d[1] == "" || CheckDevice == nil {
			continue
		}
		if err := CheckDevice(d[0], d[1]); err != nil {
			return err
		}
	}
	return nil
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

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
