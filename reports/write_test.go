package reports

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A rename that fails midway leaves every file as it was: the two renamed
// already get their old contents back, a file that did not exist before
// is removed again, and no temporary file is left in the folder.
func TestWriteFilesFailingMidwayChangesNothing(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a.csv", "b.pdf", "c.csv", "d.pdf"}
	files := map[string][]byte{}
	for _, n := range names[:3] { // d.pdf is new
		if err := os.WriteFile(filepath.Join(dir, n), []byte("old "+n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range names {
		files[filepath.Join(dir, n)] = []byte("new " + n)
	}
	for failAt := 1; failAt <= len(names); failAt++ {
		calls := 0
		rename = func(from, to string) error {
			calls++
			if calls == failAt {
				return errors.New("disk full")
			}
			return os.Rename(from, to)
		}
		err := WriteFiles(files)
		rename = os.Rename
		if err == nil {
			t.Fatalf("rename %d failed, yet WriteFiles succeeded", failAt)
		}
		for _, n := range names {
			got, err := os.ReadFile(filepath.Join(dir, n))
			switch {
			case n == "d.pdf" && !errors.Is(err, os.ErrNotExist):
				t.Errorf("rename %d failed: the new %s was left (%q, %v)", failAt, n, got, err)
			case n != "d.pdf" && string(got) != "old "+n:
				t.Errorf("rename %d failed: %s holds %q (%v), want its old contents", failAt, n, got, err)
			}
		}
		if left := listDir(t, dir); !slices.Equal(left, names[:3]) {
			t.Errorf("rename %d failed: the folder holds %v", failAt, left)
		}
	}
	if err := WriteFiles(files); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if got, _ := os.ReadFile(filepath.Join(dir, n)); string(got) != "new "+n {
			t.Errorf("%s holds %q after a good write", n, got)
		}
	}
	if left := listDir(t, dir); !slices.Equal(left, names) {
		t.Errorf("after a good write the folder holds %v", left)
	}
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}
