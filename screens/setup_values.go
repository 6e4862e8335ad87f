package screens

import "jiaohao/model"

// How a PC reaches the queue.
const (
	ModeHost = "host" // this PC hosts the branch: embedded database + peer server
	ModePeer = "peer" // connect to a hosting PC by address and token
	ModeDB   = "db"   // connect straight to a database server
)

// SetupValues are what the setup form shows and edits: this PC's role, how
// it reaches the queue, its window, the devices plugged into it and its
// language. The program owns the PC's setup made of them (app.Config): how
// it is checked, kept in the preferences and carried in a settings file;
// the form only shows and collects them. (The omitempty tags keep what a
// PC seldom has out of that file, so older programs still read it.)
type SetupValues struct {
	Role   model.Role
	Mode   string
	Window int    // a role bound to a window
	DSN    string // ModeDB; ModeHost may name its own database too
	// Branch is the code of the branch this PC works for on a database
	// of several (ModeDB, ModeHost); "" is the database's only branch. A
	// peer's token names its branch itself.
	Branch string `json:",omitempty"`
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
	// A hall screen's own layout ("" follows the branch's hall_layout)
	// and the folder of still images its split layouts show.
	HallLayout model.HallLayout `json:",omitempty"`
	Media      string           `json:",omitempty"`
	// HallArea is the name of the waiting area a hall screen shows and
	// announces (e.g. 二楼贵宾区); "" is every area.
	HallArea string `json:",omitempty"`
	// Hotkeys are a caller's global hotkeys, "call=F8,recall=F9,…"; empty
	// is the default keys, "off" none. The form does not show them: they
	// come from the command line or a settings file.
	Hotkeys string `json:",omitempty"`
}

// SetupKeeper is the program's side of the setup form.
type SetupKeeper interface {
	// Load is the setup saved on this PC, or a fresh PC's defaults.
	Load() SetupValues
	// Keep checks v and saves it as this PC's setup, or says in one
	// sentence what is wrong and saves nothing.
	Keep(v SetupValues) error
}

// SetupFiles is the settings file a technician carries from one PC to the
// next. A keeper that is one also gets the form's export and import.
type SetupFiles interface {
	Encode(SetupValues) ([]byte, error)
	Decode([]byte) (SetupValues, error)
}
