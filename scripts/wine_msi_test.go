package scripts

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The installer's places, as wine lays out a prefix.
const (
	installedExe = `C:\Program Files\Jiaohao\jiaohao.exe`
	setupKey     = `HKLM\Software\Jiaohao\Setup`
	runKey       = `HKLM\Software\Microsoft\Windows\CurrentVersion\Run`
	uninstallKey = `HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall`
)

// TestWineMSI: the MSI installs for the whole machine with a shortcut per
// role and the PC's setup from the command line; the installed program
// starts straight into that setup, full screen; a higher version upgrades
// in place keeping the setup and the data; uninstalling removes the
// program and keeps the branch database unless REMOVEDATA=1.
func TestWineMSI(t *testing.T) {
	w := needWine(t)
	needTools(t, "wixl", "msibuild", "msiinfo")
	msi := distFile(t, "jiaohao-*-windows-amd64.msi")
	exe := distFile(t, "jiaohao-*-windows-amd64.exe")
	app := fyneApp(t)
	version := strings.Join(strings.Split(app.version, ".")[:3], ".")
	if got := msiProperty(t, msi, "ProductVersion"); got != version {
		t.Errorf("the MSI's ProductVersion is %q, want FyneApp.toml's %q", got, version)
	}
	// The next version, built from the same program by the same script.
	parts := strings.Split(version, ".")
	patch, _ := strconv.Atoi(parts[2])
	next := parts[0] + "." + parts[1] + "." + strconv.Itoa(patch+1)
	upgrade := filepath.Join(w.root, "jiaohao-next.msi")
	if out, err := exec.Command("bash", filepath.Join("msi", "build.sh"), exe, next, upgrade).CombinedOutput(); err != nil {
		t.Fatalf("building version %s: %v\n%s", next, err, out)
	}
	prefs := w.userPrefs(t)
	os.RemoveAll(filepath.Dir(prefs)) // this PC has never been set up
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(prefs)) })

	// A hall-screen PC joining a branch the Linux build hosts.
	h := startLinuxHost(t, w)
	token := h.token(t, "screen")
	w.msiexec(t, "/i", msi, "ROLE=screen", "HOST="+strings.TrimPrefix(h.base, "http://"), "TOKEN="+token, "LANG=en", "AUTOSTART=1")
	program := filepath.Join(w.drive, "Program Files", "Jiaohao", "jiaohao.exe")
	if got, err := os.ReadFile(program); err != nil || !bytes.Equal(got, mustRead(t, exe)) {
		t.Fatalf("the program is not installed at %s: %v", installedExe, err)
	}
	menu := w.startMenu(t)
	for name, args := range map[string]string{"叫号 Jiaohao": "", "取号机": "--role kiosk", "窗口叫号": "--role caller",
		"大厅屏幕": "--role screen", "窗口屏": "--role counter", "评价器": "--role evaluator", "管理端": "--role manager"} {
		lnk, err := os.ReadFile(filepath.Join(menu, name+".lnk"))
		if err != nil {
			t.Errorf("no Start-menu shortcut %s: %v", name, err)
			continue
		}
		if !bytes.Contains(lnk, []byte(installedExe)) && !bytes.Contains(lnk, utf16le(installedExe)) {
			t.Errorf("shortcut %s does not start %s", name, installedExe)
		}
		if args != "" && !bytes.Contains(lnk, utf16le(args)) {
			t.Errorf("shortcut %s does not pass %q", name, args)
		}
	}
	if got := w.regValue(t, runKey, "Jiaohao"); got != `"`+installedExe+`"` {
		t.Errorf("autostart runs %q, want the installed program", got)
	}
	if got := strings.TrimSpace(w.jiaohaoAt(t, installedExe, "--version")); got != "jiaohao "+version {
		t.Errorf("the installed program's --version: %q", got)
	}

	// Started as the autostart and the main shortcut start it: no setup
	// window, the hall screen of the host, full screen.
	hall := w.start(t, "wine", installedExe)
	id := w.waitWindow(t, "Jiaohao · Hall screen", 2*time.Minute, hall)
	h.srv.waitOutput(t, "/api/v1/snapshot", time.Minute)
	if wd, ht := w.geometry(t, id); wd != 1600 || ht != 1000 {
		t.Errorf("the hall screen is %dx%d, want the whole 1600x1000 display", wd, ht)
	}
	w.closeWindow(t, "Jiaohao · Hall screen")
	if err := hall.wait(t, time.Minute); err != nil {
		t.Errorf("the hall screen ended with %v:\n%s", err, hall.output())
	}
	saved := mustRead(t, prefs)
	// A hosting PC keeps its branch database in the installer's data folder.
	data := filepath.Join(w.drive, "ProgramData", "Jiaohao", "jiaohao.db")
	w.jiaohaoAt(t, installedExe, "migrate", "--db", `sqlite:C:\ProgramData\Jiaohao\jiaohao.db`)

	// Upgrade in place, with no properties given: one product, the new
	// version, the same setup, the settings and the database untouched.
	w.msiexec(t, "/i", upgrade)
	if n := jiaohaoProducts(w.reg(t, "query", uninstallKey, "/s")); len(n) != 1 || n[0] != next {
		t.Errorf("after the upgrade the Jiaohao products installed are %v, want only %s", n, next)
	}
	for name, want := range map[string]string{"Role": "screen", "Token": token, "Lang": "en", "Autostart": "1"} {
		if got := w.regValue(t, setupKey, name); got != want {
			t.Errorf("after the upgrade the setup's %s is %q, want %q", name, got, want)
		}
	}
	if got := w.regValue(t, runKey, "Jiaohao"); got == "" {
		t.Error("the upgrade dropped the autostart")
	}
	if got, _ := os.ReadFile(prefs); !bytes.Equal(got, saved) {
		t.Errorf("the upgrade changed this PC's settings:\n%s\n---\n%s", saved, got)
	}
	if _, err := os.Stat(data); err != nil {
		t.Errorf("the upgrade lost the branch database: %v", err)
	}

	// Uninstall: the program, its shortcuts, setup and autostart go; the
	// branch database and the user's settings stay.
	w.msiexec(t, "/x", upgrade)
	for _, gone := range []string{program, menu} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Errorf("%s is still there after uninstalling (%v)", gone, err)
		}
	}
	if _, _, err := w.try(t, "reg", "query", setupKey); err == nil {
		t.Errorf("%s is still there after uninstalling", setupKey)
	}
	if n := jiaohaoProducts(w.reg(t, "query", uninstallKey, "/s")); len(n) != 0 {
		t.Errorf("after uninstalling, Jiaohao products %v are still registered", n)
	}
	if got := w.regValue(t, runKey, "Jiaohao"); got != "" {
		t.Errorf("the autostart %q is still there after uninstalling", got)
	}
	for _, kept := range []string{data, prefs} {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("uninstalling removed %s: %v", kept, err)
		}
	}

	// A PC of one branch on a central database names its branch; asked
	// to, the uninstall removes the data folder too.
	w.msiexec(t, "/i", msi, "ROLE=manager", "DB=postgres://jh@hq-db/jiaohao", "BRANCH=BJ001")
	for name, want := range map[string]string{"Role": "manager", "DB": "postgres://jh@hq-db/jiaohao", "Branch": "BJ001"} {
		if got := w.regValue(t, setupKey, name); got != want {
			t.Errorf("installed with BRANCH, the setup's %s is %q, want %q", name, got, want)
		}
	}
	w.msiexec(t, "/x", msi, "REMOVEDATA=1")
	if _, err := os.Stat(filepath.Dir(data)); !os.IsNotExist(err) {
		t.Errorf("REMOVEDATA=1 left %s (%v)", filepath.Dir(data), err)
	}
}

// msiexec runs the Windows Installer silently on a package on the Linux
// side, failing the test on a non-zero exit.
func (w *wine) msiexec(t *testing.T, verb, msi string, props ...string) {
	t.Helper()
	args := append([]string{verb, `Z:` + strings.ReplaceAll(msi, "/", `\`), "/qn"}, props...)
	if out, errOut, err := w.try(t, "msiexec", args...); err != nil {
		t.Fatalf("msiexec %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
	}
}

// jiaohaoAt runs the program installed at path.
func (w *wine) jiaohaoAt(t *testing.T, path string, args ...string) string {
	t.Helper()
	out, errOut, err := w.try(t, "wine", append([]string{path}, args...)...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", path, strings.Join(args, " "), err, errOut)
	}
	return out
}

func (w *wine) reg(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, err := w.try(t, "reg", args...)
	if err != nil {
		t.Fatalf("reg %s: %v: %s", strings.Join(args, " "), err, errOut)
	}
	return out
}

// regValue is one REG_SZ value, "" when it or its key is missing.
func (w *wine) regValue(t *testing.T, key, name string) string {
	t.Helper()
	out, _, err := w.try(t, "reg", "query", key, "/v", name)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.SplitN(strings.TrimSpace(line), "    ", 3); len(f) >= 2 && f[0] == name && f[1] == "REG_SZ" {
			if len(f) == 2 {
				return ""
			}
			return strings.TrimRight(f[2], "\r")
		}
	}
	return ""
}

// jiaohaoProducts lists the DisplayVersion of each installed product
// whose DisplayName holds "Jiaohao".
func jiaohaoProducts(list string) []string {
	var out []string
	for _, block := range strings.Split(list, "\nHKEY_") {
		if !strings.Contains(block, "DisplayName    REG_SZ    ") || !strings.Contains(block, "Jiaohao") {
			continue
		}
		for _, line := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "DisplayVersion    REG_SZ    "); ok {
				out = append(out, strings.TrimSpace(v))
			}
		}
	}
	return out
}

// startMenu is the installer's Start-menu folder. Windows puts a
// per-machine install's shortcuts under ProgramData; wine 8 puts them in
// the installing user's Start menu.
func (w *wine) startMenu(t *testing.T) string {
	t.Helper()
	for _, pattern := range []string{filepath.Join(w.drive, "ProgramData", "Microsoft", "Windows", "Start Menu", "Programs", "叫号 Jiaohao"),
		filepath.Join(w.drive, "users", "*", "AppData", "Roaming", "Microsoft", "Windows", "Start Menu", "Programs", "叫号 Jiaohao")} {
		if m, _ := filepath.Glob(pattern); len(m) == 1 {
			return m[0]
		}
	}
	t.Fatalf("no Start-menu folder 叫号 Jiaohao in the prefix")
	return ""
}

// userPrefs is where the program keeps the wine user's preferences.
func (w *wine) userPrefs(t *testing.T) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(w.drive, "users", "*", "AppData", "Roaming"))
	for _, dir := range m {
		if !strings.Contains(dir, "/Public/") {
			return filepath.Join(dir, "fyne", "cn.jiaohao.app", "preferences.json")
		}
	}
	t.Fatal("no user profile in the prefix")
	return ""
}

// msiProperty reads a row of the package's Property table.
func msiProperty(t *testing.T, msi, name string) string {
	t.Helper()
	out, err := exec.Command("msiinfo", "export", msi, "Property").Output()
	if err != nil {
		t.Fatalf("msiinfo: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), name+"\t"); ok {
			return v
		}
	}
	return ""
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
