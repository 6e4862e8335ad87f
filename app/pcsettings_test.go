package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"jiaohao/model"
	"jiaohao/screens"
)

// onPC points the user's folders at a fresh directory, as if the command
// ran on another PC, and returns where that PC's Fyne preferences live.
func onPC(t *testing.T) (prefsFile string) {
	t.Helper()
	dir := t.TempDir()
	for _, v := range []string{"XDG_CONFIG_HOME", "HOME", "USERPROFILE", "AppData"} {
		t.Setenv(v, dir)
	}
	p, err := openFilePrefs(appID)
	if err != nil {
		t.Fatal(err)
	}
	return p.path
}

var callerPC = Config{Role: "caller", Mode: screens.ModePeer, Window: 2,
	Peer: "http://192.168.1.10:8520", Token: "tok-window-2", Lang: "zh"}

// TestSettingsRoundTrip: what the setup window saved on one PC is exported
// to a file and imported on another, through the command line, with the
// window number and token of the new PC; Fyne's other preferences on that
// PC are kept.
func TestSettingsRoundTrip(t *testing.T) {
	// PC 1: the setup window saved its settings (Fyne's own store), and
	// Fyne wrote them to its preferences file.
	gui := test.NewTempApp(t).Preferences()
	if err := SaveConfig(gui, callerPC); err != nil {
		t.Fatal(err)
	}
	data, err := ExportPCSettings(gui)
	if err != nil {
		t.Fatal(err)
	}
	pc1 := onPC(t)
	p1, _ := loadFilePrefs(pc1)
	if _, err := ImportPCSettings(p1, data, nil); err != nil {
		t.Fatal(err)
	}
	if err := p1.save(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "caller.json")
	if code, _, stderr := cli("settings", "export", "--file", file); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}

	// PC 2 already has a Fyne preference of its own.
	pc2 := onPC(t)
	if err := os.MkdirAll(filepath.Dir(pc2), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pc2, []byte(`{"fyne.theme.scale":1.5}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli("settings", "import", "--file", file, "--window", "7", "--token", "tok-window-7")
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "window 7") {
		t.Errorf("import said %q, want it to name window 7", stdout)
	}
	p2, err := loadFilePrefs(pc2)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := LoadConfig(p2)
	want := callerPC
	want.Window, want.Token = 7, "tok-window-7"
	if !ok || got != want {
		t.Fatalf("PC 2 has %+v (saved %v), want %+v", got, ok, want)
	}
	if p2.Float("fyne.theme.scale") != 1.5 {
		t.Errorf("import dropped PC 2's other preferences: %v", p2.values)
	}

	// And the GUI's store reads the imported file the same way.
	gui2 := test.NewTempApp(t).Preferences()
	raw, _ := os.ReadFile(file)
	if c, err := ImportPCSettings(gui2, raw, nil); err != nil || c != callerPC {
		t.Fatalf("GUI import: %+v, %v", c, err)
	}
	if c, _ := LoadConfig(gui2); c != callerPC {
		t.Errorf("GUI preferences hold %+v, want %+v", c, callerPC)
	}
}

// TestSettingsFileIsVersioned: the file says what it is and which version.
func TestSettingsFileIsVersioned(t *testing.T) {
	data, err := EncodePCSettings(callerPC)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f["format"] != "jiaohao-pc-settings" || f["version"] != float64(PCSettingsVersion) {
		t.Errorf("file header is %v", f)
	}
}

// TestBadSettingsFilesChangeNothing: a damaged file, one from an older or
// newer version, or one with invalid settings is one sentence on stderr,
// exit code 2, and the PC's preferences file stays byte for byte the same.
func TestBadSettingsFilesChangeNothing(t *testing.T) {
	prefsFile := onPC(t)
	p, _ := loadFilePrefs(prefsFile)
	before := Config{Role: "kiosk", Mode: screens.ModeHost, Window: 1, Lang: "en"}
	if err := SaveConfig(p, before); err != nil {
		t.Fatal(err)
	}
	if err := p.save(); err != nil {
		t.Fatal(err)
	}
	original, _ := os.ReadFile(prefsFile)
	good, _ := EncodePCSettings(callerPC)
	settings := func(s string) string { return `{"format":"jiaohao-pc-settings","version":1,"settings":` + s + `}` }

	dir := t.TempDir()
	for _, c := range []struct{ name, content, says string }{
		{"truncated", string(good[:len(good)/2]), "damaged"},
		{"not JSON", "role=caller\nwindow=2\n", "damaged"},
		{"empty", "", "damaged"},
		{"binary", "\x00\x01\x02PK\x03\x04", "damaged"},
		{"older version", `{"format":"jiaohao-pc-settings","version":0,"settings":{"role":"caller"}}`, "older version"},
		{"no version", `{"format":"jiaohao-pc-settings","settings":{}}`, "damaged"},
		{"newer version", `{"format":"jiaohao-pc-settings","version":2,"settings":{"Role":"caller","Extra":1}}`, "newer version"},
		{"another file", `{"name":"report","rows":[]}`, "not a jiaohao settings file"},
		{"no settings", `{"format":"jiaohao-pc-settings","version":1}`, "damaged"},
		{"unknown key", settings(`{"Role":"caller","Mode":"peer","Window":2,"Peer":"http://h:1","Token":"t","Lang":"zh","Printr":"x"}`), "damaged"},
		{"bad printer", settings(`{"Role":"kiosk","Mode":"host","Window":1,"Lang":"zh","Printer":"x"}`), "not valid"},
		{"bad LED bar", settings(`{"Role":"screen","Mode":"host","Window":1,"Lang":"zh","LED":"led+serial://COM4?encoding=latin1"}`), "not valid"},
		{"wrong type", settings(`{"Role":"caller","Mode":"host","Window":"2","Lang":"zh"}`), "wrong type"},
		{"invalid role", settings(`{"Role":"boss","Mode":"host","Window":1,"Lang":"zh"}`), "not valid"},
		{"peer without token", settings(`{"Role":"screen","Mode":"peer","Window":1,"Peer":"http://h:1","Lang":"zh"}`), "not valid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".json")
			if err := os.WriteFile(file, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := cli("settings", "import", "--file", file)
			if code != 2 || stdout != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.says) || !strings.Contains(stderr, "nothing was changed") {
				t.Errorf("stderr %q: want one line saying %q and that nothing was changed", stderr, c.says)
			}
			if now, _ := os.ReadFile(prefsFile); !bytes.Equal(now, original) {
				t.Errorf("preferences changed:\n%s\nwas\n%s", now, original)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(prefsFile), ".*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}

			// The GUI's store is untouched as well.
			gui := test.NewTempApp(t).Preferences()
			_ = SaveConfig(gui, before)
			if _, err := ImportPCSettings(gui, []byte(c.content), nil); model.ErrorCode(err) != model.EInvalidInput {
				t.Errorf("ImportPCSettings: %v, want an invalid-input error", err)
			}
			if got, _ := LoadConfig(gui); got != before {
				t.Errorf("GUI preferences became %+v", got)
			}
		})
	}
}

func TestSettingsCommandMistakes(t *testing.T) {
	onPC(t)
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"settings"}, "export|import"},
		{[]string{"settings", "copy"}, "export|import"},
		{[]string{"settings", "export"}, "--file"},
		{[]string{"settings", "export", "--file", filepath.Join(t.TempDir(), "x.json")}, "no saved settings"},
		{[]string{"settings", "import", "--file", filepath.Join(t.TempDir(), "missing.json")}, "no such file"},
		{[]string{"settings", "export", "--window", "3", "--file", "x.json"}, "window"},
	} {
		code, _, stderr := cli(c.args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.says) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line saying %q", c.args, code, stderr, c.says)
		}
	}
}

// TestAppIDMatchesFyneApp: the packaged program (FyneApp.toml), the
// desktop program and the command line keep preferences under one id.
func TestAppIDMatchesFyneApp(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "FyneApp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*ID\s*=\s*"([^"]+)"`).FindSubmatch(b)
	if m == nil || string(m[1]) != appID {
		t.Fatalf("FyneApp.toml ID is %q, want %q", m, appID)
	}
}

// A kiosk's devices travel with its settings file, and the next kiosk puts
// its own in on import: another printer, none (the branch's), or a wrong
// address that changes nothing.
func TestSettingsImportTakesThisPCsDevices(t *testing.T) {
	kiosk := Config{Role: "kiosk", Mode: screens.ModePeer, Window: 1, Peer: "http://192.168.1.10:8520",
		Token: "tok-kiosk-1", Lang: "zh", Printer: "escpos+tcp://192.168.1.51:9100", LED: "led+serial://COM4?encoding=gb2312"}
	file := settingsFile(t, kiosk)
	pc := onPC(t)
	load := func() Config {
		t.Helper()
		p, err := loadFilePrefs(pc)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := LoadConfig(p)
		return c
	}
	code, stdout, stderr := cli("settings", "import", "--file", file, "--token", "tok-kiosk-2", "--printer", "escpos+tcp://192.168.1.52:9100")
	if code != 0 || !strings.Contains(stdout, "printer escpos+tcp://192.168.1.52:9100") {
		t.Fatalf("import: exit %d: %s %s", code, stdout, stderr)
	}
	if got := load(); got.Printer != "escpos+tcp://192.168.1.52:9100" || got.LED != kiosk.LED || got.Token != "tok-kiosk-2" {
		t.Fatalf("kiosk 2 holds %+v", got)
	}
	if code, _, stderr := cli("settings", "import", "--file", file, "--printer", "lpt1", "--led", ""); code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("a wrong printer address: exit %d: %q", code, stderr)
	}
	if got := load(); got.Printer != "escpos+tcp://192.168.1.52:9100" || got.LED != kiosk.LED {
		t.Fatalf("a refused import changed kiosk 2: %+v", got)
	}
	if code, _, stderr := cli("settings", "import", "--file", file, "--printer", "", "--led", ""); code != 0 {
		t.Fatalf("import clearing the devices: exit %d: %s", code, stderr)
	}
	if got := load(); got.Printer != "" || got.LED != "" {
		t.Fatalf("devices not cleared: %+v", got)
	}
	empty, _ := EncodePCSettings(callerPC)
	if bytes.Contains(empty, []byte("Printer")) || bytes.Contains(empty, []byte("LED")) {
		t.Fatalf("a PC without devices writes empty device fields:\n%s", empty)
	}
}

// A file printer is a path typed on one PC: a settings file carrying one
// from another PC is refused (it could name any file here), unless this
// PC's own printer is typed with --printer.
func TestSettingsImportRefusesCarriedFilePrinter(t *testing.T) {
	kiosk := Config{Role: "kiosk", Mode: screens.ModePeer, Window: 1, Peer: "http://192.168.1.10:8520",
		Token: "tok-kiosk-1", Lang: "zh", Printer: "file:C:/ProgramData/Microsoft/Windows/Start Menu/Programs/StartUp/x.bat"}
	file := settingsFile(t, kiosk)
	pc := onPC(t)
	code, _, stderr := cli("settings", "import", "--file", file)
	if code != 2 || !strings.Contains(stderr, "--printer") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("carried file printer: exit %d: %q", code, stderr)
	}
	if p, err := loadFilePrefs(pc); err == nil {
		if c, saved := LoadConfig(p); saved {
			t.Fatalf("a refused import saved %+v", c)
		}
	}
	typed := "file:" + filepath.Join(t.TempDir(), "tickets.bin")
	if code, stdout, stderr := cli("settings", "import", "--file", file, "--printer", typed); code != 0 || !strings.Contains(stdout, typed) {
		t.Fatalf("a file printer typed here: exit %d: %s %s", code, stdout, stderr)
	}
}

// settingsFile exports c to a settings file, as another PC would hand it
// over, and returns its path.
func settingsFile(t *testing.T, c Config) string {
	t.Helper()
	data, err := EncodePCSettings(c)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "kiosk.json")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}
