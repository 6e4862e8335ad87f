// Package scripts holds the build and packaging scripts; its tests read what
// scripts/package.sh produced: the Linux archive's desktop entry and the
// Windows executable's embedded version, icon and names.
//
// They run when JIAOHAO_DIST_DIR names the folder package.sh wrote (.ci/build
// sets it after packaging); with JIAOHAO_TEST_REQUIRE_DIST=1 a missing folder
// is a failure instead of a skip.
package scripts

import (
	"archive/tar"
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// app is what FyneApp.toml says the packages must carry.
type app struct{ name, id, version, genericName string }

func fyneApp(t *testing.T) app {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "FyneApp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	field := func(key string) string {
		m := regexp.MustCompile(`(?m)^\s*` + key + `\s*=\s*"?([^"\n]*)"?\s*$`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("FyneApp.toml has no %s", key)
		}
		return string(m[1])
	}
	build, err := strconv.Atoi(field("Build"))
	if err != nil {
		t.Fatalf("FyneApp.toml Build: %v", err)
	}
	// fyne package embeds VERSION.BUILD, padding VERSION to three numbers.
	v := field("Version")
	for strings.Count(v, ".") < 2 {
		v += ".0"
	}
	return app{name: field("Name"), id: field("ID"), version: v + "." + strconv.Itoa(build), genericName: field("GenericName")}
}

// distFile is the artefact called pattern in JIAOHAO_DIST_DIR.
func distFile(t *testing.T, pattern string) string {
	t.Helper()
	dir := os.Getenv("JIAOHAO_DIST_DIR")
	if dir == "" {
		if os.Getenv("JIAOHAO_TEST_REQUIRE_DIST") == "1" {
			t.Fatal("JIAOHAO_TEST_REQUIRE_DIST=1 but JIAOHAO_DIST_DIR is not set: run scripts/package.sh and point JIAOHAO_DIST_DIR at its output")
		}
		t.Skip("set JIAOHAO_DIST_DIR to the output of scripts/package.sh to check the packages (JIAOHAO_TEST_REQUIRE_DIST=1 makes this a failure)")
	}
	m, _ := filepath.Glob(filepath.Join(dir, pattern))
	if len(m) != 1 {
		t.Fatalf("want exactly one %s in JIAOHAO_DIST_DIR=%s, found %v", pattern, dir, m)
	}
	return m[0]
}

func TestLinuxArchiveHasDesktopEntry(t *testing.T) {
	want := fyneApp(t)
	archive := distFile(t, "jiaohao-*-linux-amd64.tar.xz")
	files := readTarXZ(t, archive)

	var entryName string
	for name := range files {
		if strings.HasSuffix(name, "/share/applications/"+want.id+".desktop") {
			entryName = name
		}
	}
	if entryName == "" {
		t.Fatalf("no share/applications/%s.desktop in %s; it has %v", want.id, archive, keys(files))
	}
	entry := parseDesktopEntry(t, files[entryName].data)
	for k, v := range map[string]string{
		"Type": "Application", "Name": want.name, "GenericName": want.genericName,
		"Exec": "jiaohao", "Icon": want.id,
	} {
		if entry[k] != v {
			t.Errorf("desktop entry %s=%q, want %q", k, entry[k], v)
		}
	}
	if !strings.Contains(entry["Categories"], "Office;") {
		t.Errorf("desktop entry Categories=%q, want Office", entry["Categories"])
	}

	// What the entry points at is in the archive: the program and its icon.
	prefix := strings.TrimSuffix(entryName, "share/applications/"+want.id+".desktop")
	bin, ok := files[prefix+"bin/"+entry["Exec"]]
	if !ok || bin.mode&0o111 == 0 || !bytes.HasPrefix(bin.data, []byte("\x7fELF")) {
		t.Errorf("no executable ELF program at %sbin/%s", prefix, entry["Exec"])
	}
	icon, ok := files[prefix+"share/pixmaps/"+entry["Icon"]+".png"]
	if !ok || !bytes.HasPrefix(icon.data, []byte("\x89PNG")) {
		t.Errorf("no PNG icon at %sshare/pixmaps/%s.png", prefix, entry["Icon"])
	}
}

// TestLinuxArchiveInstalls: every file `sudo make install` copies is in the
// archive, so the install the setup guide gives runs to the end.
func TestLinuxArchiveInstalls(t *testing.T) {
	files := readTarXZ(t, distFile(t, "jiaohao-*-linux-amd64.tar.xz"))
	var makefile string
	for name := range files {
		if strings.Count(name, "/") == 1 && strings.HasSuffix(name, "/Makefile") {
			makefile = name
		}
	}
	if makefile == "" {
		t.Fatal("no Makefile at the top of the archive")
	}
	dir := strings.TrimSuffix(makefile, "Makefile")
	vars := map[string]string{}
	inInstall, copies := false, 0
	for _, line := range strings.Split(string(files[makefile].data), "\n") {
		if k, v, ok := strings.Cut(line, " := "); ok {
			vars["$("+k+")"] = strings.Trim(v, `"`)
		}
		if !strings.HasPrefix(line, "\t") {
			inInstall = line == "install:"
			continue
		}
		f := strings.Fields(line)
		if !inInstall || len(f) < 3 || f[0] != "install" {
			continue
		}
		src := f[2]
		for k, v := range vars {
			src = strings.ReplaceAll(src, k, v)
		}
		src = strings.ReplaceAll(src, `"`, "")
		if _, ok := files[dir+src]; !ok {
			t.Errorf("make install copies %s, which is not in the archive", src)
		}
		copies++
	}
	if copies < 3 {
		t.Errorf("make install copies %d files, want the program, its desktop entry and its icon", copies)
	}
}

type tarFile struct {
	mode int64
	data []byte
}

// readTarXZ unpacks with the xz program (the standard library has no xz);
// tar itself needs it to make the archive, so it is there.
func readTarXZ(t *testing.T, path string) map[string]tarFile {
	t.Helper()
	out, err := exec.Command("xz", "-dc", path).Output()
	if err != nil {
		t.Fatalf("xz -dc %s: %v", path, err)
	}
	files := map[string]tarFile{}
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files
		}
		if err != nil {
			t.Fatalf("%s is not a valid tar archive: %v", path, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[strings.TrimPrefix(h.Name, "./")] = tarFile{mode: h.Mode, data: data}
	}
}

// parseDesktopEntry reads the [Desktop Entry] group's keys.
func parseDesktopEntry(t *testing.T, b []byte) map[string]string {
	t.Helper()
	kv := map[string]string{}
	group := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			group = line
		case group == "[Desktop Entry]":
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("desktop entry line %q is not key=value", line)
			}
			kv[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if len(kv) == 0 {
		t.Fatalf("no [Desktop Entry] group in:\n%s", b)
	}
	return kv
}

func keys(m map[string]tarFile) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
