package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFilePrefsKeepsEveryType: values of each kind survive a save and a
// reload (JSON numbers come back as Fyne reads them), missing or mistyped
// keys give the fallback, and listeners hear each change.
func TestFilePrefsKeepsEveryType(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fyne", "x", "preferences.json")
	p, err := loadFilePrefs(path)
	if err != nil {
		t.Fatal(err)
	}
	heard := 0
	p.AddChangeListener(func() { heard++ })
	p.SetBool("b", true)
	p.SetBoolList("bl", []bool{true, false})
	p.SetFloat("f", 1.5)
	p.SetFloatList("fl", []float64{1, 2.5})
	p.SetInt("i", 42)
	p.SetIntList("il", []int{3, 4})
	p.SetString("s", "叫号")
	p.SetStringList("sl", []string{"a", "b"})
	p.SetString("gone", "x")
	p.RemoveValue("gone")
	if heard != 10 {
		t.Errorf("listeners heard %d changes, want 10", heard)
	}
	if err := p.save(); err != nil {
		t.Fatal(err)
	}

	q, err := loadFilePrefs(path)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Bool("b") || !slices.Equal(q.BoolList("bl"), []bool{true, false}) ||
		q.Float("f") != 1.5 || !slices.Equal(q.FloatList("fl"), []float64{1, 2.5}) ||
		q.Int("i") != 42 || !slices.Equal(q.IntList("il"), []int{3, 4}) ||
		q.String("s") != "叫号" || !slices.Equal(q.StringList("sl"), []string{"a", "b"}) {
		t.Errorf("reloaded values differ: %v", q.values)
	}
	if q.StringWithFallback("gone", "fb") != "fb" || q.IntWithFallback("s", 7) != 7 ||
		q.BoolWithFallback("i", true) != true || len(q.StringList("il")) != 0 {
		t.Errorf("missing or mistyped keys did not give the fallback")
	}
}

func TestFilePrefsDamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preferences.json")
	if err := os.WriteFile(path, []byte(`{"jiaohao.role":`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := loadFilePrefs(path)
	if err == nil || !strings.Contains(err.Error(), "damaged") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("damaged preferences: %v, want one sentence", err)
	}
}
