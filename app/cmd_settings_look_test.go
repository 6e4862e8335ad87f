package app

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// `jiaohao settings logo|colors` set the branch's look on the database;
// a broken image or an unreadable pair of colours is refused with a
// sentence and the stored look stays.
func TestSettingsSetsTheBranchLook(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	dir := t.TempDir()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 30, 10))); err != nil {
		t.Fatal(err)
	}
	good, bad := filepath.Join(dir, "logo.png"), filepath.Join(dir, "broken.png")
	if err := os.WriteFile(good, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, b.Bytes()[:20], 0o600); err != nil {
		t.Fatal(err)
	}
	runOK := func(args ...string) {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
	}
	refused := func(want string, args ...string) {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code == 0 || !strings.Contains(errb.String(), want) {
			t.Fatalf("%v: exit %d, stderr %q; want a refusal saying %q", args, code, errb.String(), want)
		}
	}
	const colors = "background=#ffffff&number=#0b5cad&highlight=#ffd54f&text=#000000"
	runOK("settings", "logo", "--db", dsn, "--file", good)
	runOK("settings", "colors", "--db", dsn, "--value", colors)
	refused("PNG 或 JPEG", "settings", "logo", "--db", dsn, "--file", bad)
	refused("对比度", "settings", "colors", "--db", dsn, "--value", "background=#ffffff&text=#cccccc")
	// Unreadable colours are bad input, as a malformed value is: exit 2,
	// not the 1 of a database that failed.
	if code := run([]string{"settings", "colors", "--db", dsn, "--value", "background=#ffffff&text=#cccccc"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 2 {
		t.Fatalf("low-contrast colours exit %d, want 2 like any bad input", code)
	}
	refused("--clear", "settings", "logo", "--db", dsn)
	// A forgotten --value (or the value given bare) must not clear the
	// branch's colours: "" is a choice, written out as --value "".
	refused("--value", "settings", "colors", "--db", dsn)
	refused("argument", "settings", "colors", "--db", dsn, "background=#000000&text=#ffffff")
	refused("--value", "settings", "colors", "--db", dsn, "--file", good)

	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	logo, err := st.Logo(context.Background())
	if err != nil || !bytes.Equal(logo, b.Bytes()) {
		t.Fatalf("stored logo %d bytes (%v), want the file's %d", len(logo), err, b.Len())
	}
	set, err := st.Settings(context.Background())
	if err != nil || set.Raw["colors"] != colors || !set.Look.Set {
		t.Fatalf("stored colors %q (%v), want %q", set.Raw["colors"], err, colors)
	}
	if err := model.CheckContrast(set.Look); err != nil {
		t.Fatalf("the stored look fails its own check: %v", err)
	}
}
