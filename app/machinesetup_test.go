package app

import (
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/screens"
)

// The MSI's properties become the PC's setup: a HOST makes a peer, a DB a
// database client, neither a hosting PC whose database is in DataDir.
func TestMachineSetupConfig(t *testing.T) {
	for _, c := range []struct {
		name string
		m    machineSetup
		want Config
	}{
		{"kiosk on a host", machineSetup{"Role": "kiosk", "Host": "192.168.1.10", "Token": "jh_k"},
			Config{Role: "kiosk", Mode: screens.ModePeer, Window: 1, Peer: "http://192.168.1.10:8520", Token: "jh_k", Lang: "zh"}},
		{"caller with port and language", machineSetup{"Role": "Caller", "Host": "hall-pc:9000", "Token": "jh_c", "Window": "3", "Lang": "en"},
			Config{Role: "caller", Mode: screens.ModePeer, Window: 3, Peer: "http://hall-pc:9000", Token: "jh_c", Lang: "en"}},
		{"URL as given", machineSetup{"Role": "screen", "Host": "https://10.0.0.2:8520/", "Token": "jh_s", "LED": "led+serial://COM5"},
			Config{Role: "screen", Mode: screens.ModePeer, Window: 1, Peer: "https://10.0.0.2:8520", Token: "jh_s", Lang: "zh", LED: "led+serial://COM5"}},
		{"server database", machineSetup{"Role": "manager", "DB": "sqlserver://jh:pw@db1?database=branch"},
			Config{Role: "manager", Mode: screens.ModeDB, Window: 1, DSN: "sqlserver://jh:pw@db1?database=branch", Lang: "zh"}},
		{"one branch of a central database", machineSetup{"Role": "kiosk", "DB": "postgres://jh@hq-db/jiaohao", "Branch": "BJ001"},
			Config{Role: "kiosk", Mode: screens.ModeDB, Window: 1, DSN: "postgres://jh@hq-db/jiaohao", Branch: "BJ001", Lang: "zh"}},
		{"hosting PC", machineSetup{"Role": "manager", "DataDir": `C:\ProgramData\Jiaohao`, "Host": " "},
			Config{Role: "manager", Mode: screens.ModeHost, Window: 1, DSN: "sqlite:" + filepath.Join(`C:\ProgramData\Jiaohao`, "jiaohao.db"), Lang: "zh"}},
	} {
		got, err := c.m.config()
		if err != nil || got != c.want {
			t.Errorf("%s: got %+v (%v), want %+v", c.name, got, err, c.want)
		}
	}
	for _, bad := range []machineSetup{
		{"Role": "cashier"},
		{"Role": "caller", "Window": "two"},
		{"Role": "kiosk", "Host": "10.0.0.2"}, // no token
		{"Role": "kiosk", "Host": "10.0.0.2", "DB": "sqlite:x.db", "Token": "t"},
		{"Role": "kiosk", "Lang": "fr"},
		{"Role": "kiosk", "DB": "postgres://jh@hq-db/jiaohao", "Branch": "BJ 001"}, // not a branch code
		{"Role": "kiosk", "Host": "10.0.0.2", "Token": "t", "Branch": "BJ001"},     // the token names the branch
	} {
		if _, err := bad.config(); err == nil {
			t.Errorf("%v was taken", bad)
		}
	}
}

// Applied once per deployment: a clerk's later change stands until the
// IT department deploys different values; bad values change nothing.
func TestMachineSetupAppliedOnce(t *testing.T) {
	p, err := loadFilePrefs(filepath.Join(t.TempDir(), "preferences.json"))
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	logf := func(f string, a ...any) { logged = append(logged, f) }
	if applyMachineSetup(p, nil, logf) || applyMachineSetup(p, machineSetup{"Host": "10.0.0.2"}, logf) {
		t.Fatal("a setup without a role was applied")
	}
	m := machineSetup{"Role": "kiosk", "Host": "10.0.0.2", "Token": "jh_k"}
	if !applyMachineSetup(p, m, logf) {
		t.Fatal("the installer's setup was not applied")
	}
	c, ok := LoadConfig(p)
	if !ok || c.Role != "kiosk" || c.Peer != "http://10.0.0.2:8520" {
		t.Fatalf("saved %+v", c)
	}
	c.Lang = "en" // the clerk's own change
	if err := SaveConfig(p, c); err != nil {
		t.Fatal(err)
	}
	if applyMachineSetup(p, machineSetup{"Role": "kiosk", "Host": "10.0.0.2", "Token": "jh_k", "Window": ""}, logf) {
		t.Error("the same deployment was applied again over the clerk's change")
	}
	if c, _ := LoadConfig(p); c.Lang != "en" {
		t.Errorf("the clerk's change was lost: %+v", c)
	}
	if applyMachineSetup(p, machineSetup{"Role": "kiosk", "Host": "10.0.0.3"}, logf) {
		t.Error("a setup without a token was applied")
	}
	if len(logged) != 1 || strings.Contains(logged[0], "\n") {
		t.Errorf("want one sentence for the bad setup, logged %q", logged)
	}
	if c, _ := LoadConfig(p); c.Peer != "http://10.0.0.2:8520" {
		t.Errorf("bad values changed the setup: %+v", c)
	}
	m["Token"] = "jh_new" // a new token deployed after a revoke
	if !applyMachineSetup(p, m, logf) {
		t.Fatal("a new deployment was not applied")
	}
	if c, _ := LoadConfig(p); c.Token != "jh_new" || c.Lang != "zh" {
		t.Errorf("the new deployment gave %+v", c)
	}
}
