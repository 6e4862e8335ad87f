package app

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"

	"jiaohao/model"
	"jiaohao/screens"
)

// A machine setup is what an IT department gave the installer for every
// user of one PC: `msiexec /i jiaohao.msi /qn ROLE=kiosk HOST=… TOKEN=…`
// writes the properties as registry values (HKLM\SOFTWARE\Jiaohao\Setup),
// and the program turns them into its saved setup at its next start, so a
// kiosk installed by Group Policy starts as a kiosk with no setup window.
//
// The values are applied once: a fingerprint of what was applied is kept
// with the preferences, so a clerk's later change in the setup window
// stands until the IT department deploys different values.
const machineSetupKey = "jiaohao.machine_setup"

// machineSetup holds the installer's values by name: Role, Host, Token,
// Window, DB, Branch, Lang, Printer, LED and DataDir (where a hosting PC
// keeps its branch database). Empty values are as good as missing.
type machineSetup map[string]string

// fingerprint identifies the values, so the same deployment is applied
// once however often the program starts.
func (m machineSetup) fingerprint() string {
	keys := make([]string, 0, len(m))
	for k, v := range m {
		if strings.TrimSpace(v) != "" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s\n", k, strings.TrimSpace(m[k]))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (m machineSetup) get(k string) string { return strings.TrimSpace(m[k]) }

// config is the setup the values describe: a PC given a HOST connects to
// that hosting PC with its TOKEN, one given a DB to that database, and one
// given neither hosts the branch itself, on a database in DataDir.
func (m machineSetup) config() (Config, error) {
	c := Config{Role: model.Role(strings.ToLower(m.get("Role"))), Mode: screens.ModeHost, Window: 1, Lang: "zh",
		Printer: m.get("Printer"), LED: m.get("LED")}
	if l := m.get("Lang"); l != "" {
		c.Lang = strings.ToLower(l)
	}
	if w := m.get("Window"); w != "" {
		n, err := strconv.Atoi(w)
		if err != nil || n <= 0 {
			return c, model.Errorf(model.EInvalidInput, "安装参数 WINDOW 须为正整数，收到 %q (WINDOW must be a window number)", w)
		}
		c.Window = n
	}
	switch host, db := m.get("Host"), m.get("DB"); {
	case host != "" && db != "":
		return c, model.Errorf(model.EInvalidInput, "安装参数 HOST 与 DB 只能给一个 (give HOST or DB, not both)")
	case host != "" && m.get("Branch") != "":
		// The hosting PC knows the branch of each token: a code here
		// could only disagree with it.
		return c, model.Errorf(model.EInvalidInput, "安装参数 BRANCH 只与 DB 一起用；连接主机时由令牌决定网点 (BRANCH goes with DB; with HOST the token names the branch)")
	case host != "":
		c.Mode, c.Peer, c.Token = screens.ModePeer, hostURL(host), m.get("Token")
	case db != "":
		c.Mode, c.DSN, c.Branch = screens.ModeDB, db, m.get("Branch")
	case m.get("DataDir") != "":
		c.DSN = "sqlite:" + filepath.Join(m.get("DataDir"), "jiaohao.db")
	}
	return c, c.Validate()
}

// hostURL accepts what an IT department is likely to type for the hosting
// PC: a name or address, with or without the port and the scheme.
func hostURL(host string) string {
	if strings.HasPrefix(host, "http://") || strings.HasPrefix(host, "https://") {
		return strings.TrimRight(host, "/")
	}
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(strings.Trim(host, "[]"), defaultPort)
	}
	return "http://" + host
}

// applyMachineSetup saves the installer's values as this PC's setup when
// they are new to it. Values that do not make a valid setup change
// nothing: they are logged in one sentence and the setup window asks.
func applyMachineSetup(p fyne.Preferences, m machineSetup, logf func(string, ...any)) bool {
	if m.get("Role") == "" {
		return false
	}
	fp := m.fingerprint()
	if p.String(machineSetupKey) == fp {
		return false
	}
	c, err := m.config()
	if err == nil {
		err = SaveConfig(p, c)
	}
	if err != nil {
		logf("安装时给出的设置无效，未采用 (the installer's setup was not used): %s", model.ErrorMessage(err))
		return false
	}
	p.SetString(machineSetupKey, fp)
	return true
}
