package reports

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"jiaohao/model"
)

// rename moves a finished temporary file into place; a test makes it fail
// midway to see that the old files come back.
var rename = os.Rename

// WriteFiles writes each path's bytes so that either every file is new
// or none is changed. Every file goes to a synced temporary file beside it
// first and every file already there is copied aside; only then are they
// renamed into place, in a fixed order (by path), and a rename that fails
// puts back the old files of those already renamed. Two writers of the
// same files must not run at once: the caller holds a lock for that
// (the health check's per-day lock).
func WriteFiles(files map[string][]byte) error {
	paths := slices.Sorted(maps.Keys(files))
	var left []string // temporary files and backups to remove at the end
	defer func() {
		for _, tmp := range left {
			os.Remove(tmp) // after a successful rename this finds nothing
		}
	}()
	temps := make([]string, len(paths))
	backups := make([]string, len(paths)) // "" where no file was there
	for i, path := range paths {
		tmp, err := writeTemp(path, files[path])
		if err != nil {
			return err
		}
		temps[i], left = tmp, append(left, tmp)
		old, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return cannotWrite(path)
		default:
			if backups[i], err = writeTemp(path, old); err != nil {
				return err
			}
			left = append(left, backups[i])
		}
	}
	for i, path := range paths {
		if err := rename(temps[i], path); err != nil {
			undoRenames(paths[:i], backups[:i])
			return cannotWrite(path)
		}
	}
	syncDirs(paths)
	return nil
}

// undoRenames puts back the files before a failed rename: each old file
// from its backup, and a file that was not there is removed again.
func undoRenames(paths, backups []string) {
	for i, path := range paths {
		if backups[i] == "" {
			os.Remove(path)
			continue
		}
		os.Rename(backups[i], path) // the same directory: as sure as the renames that worked
	}
}

// syncDirs makes the renames durable where the system allows syncing a
// directory (not on Windows, where a failure here changes nothing).
func syncDirs(paths []string) {
	seen := map[string]bool{}
	for _, p := range paths {
		dir := filepath.Dir(p)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		if d, err := os.Open(dir); err == nil {
			d.Sync()
			d.Close()
		}
	}
}

// CheckWritable fails early, before a long query, when path's directory
// cannot take the file.
func CheckWritable(path string) error {
	tmp, err := writeTemp(path, nil)
	if err != nil {
		return err
	}
	return os.Remove(tmp)
}

func writeTemp(path string, data []byte) (string, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return "", model.Errorf(model.EInvalidInput, "无法写入 %s：这是一个文件夹 (output is a directory)", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", cannotWrite(path)
	}
	_, werr := f.Write(data)
	cerr := f.Chmod(0o644) // CreateTemp makes 0600; a report is for sharing
	if err := errors.Join(werr, cerr, f.Sync(), f.Close()); err != nil {
		os.Remove(f.Name())
		return "", cannotWrite(path)
	}
	return f.Name(), nil
}

func cannotWrite(path string) error {
	return model.Errorf(model.EInvalidInput, "无法写入 %s：文件夹不存在或没有写权限 (cannot write the output file)", path)
}

// Save generates the report of period p and writes the PDF and, when
// csvPath is not empty, the CSV, all or nothing. The command line and the
// manager screen both call it.
func Save(ctx context.Context, src Source, p Period, lang Lang, pdfPath, csvPath string) (Report, error) {
	r, err := Generate(ctx, src, p, Options{})
	if err != nil {
		return Report{}, err
	}
	pdf, err := PDF(r, lang)
	if err != nil {
		return Report{}, err
	}
	files := map[string][]byte{pdfPath: pdf}
	if csvPath != "" {
		if files[csvPath], err = CSV(r); err != nil {
			return Report{}, err
		}
	}
	return r, WriteFiles(files)
}

// Files is a rendered report: the file name stem both files share and
// their contents. A peer server sends it to a manager PC, which writes it
// there.
type Files struct {
	Name string
	PDF  []byte
	CSV  []byte
}

// Render generates the report of the days from..to (YYYY-MM-DD) in memory,
// named jiaohao-report-FROM[_TO].
func Render(ctx context.Context, src Source, from, to string, lang Lang) (Files, error) {
	p, err := NewPeriod(from, to, src.Location())
	if err != nil {
		return Files{}, err
	}
	r, err := Generate(ctx, src, p, Options{})
	if err != nil {
		return Files{}, err
	}
	f := Files{Name: FileStem(from, to)}
	if f.PDF, err = PDF(r, lang); err != nil {
		return Files{}, err
	}
	if f.CSV, err = CSV(r); err != nil {
		return Files{}, err
	}
	return f, nil
}

// FileStem names the report of the days from..to: jiaohao-report-FROM,
// or jiaohao-report-FROM_TO for a range.
func FileStem(from, to string) string { return stem("jiaohao-report-", from, to) }

// BranchesFileStem names the files of a report over several branches:
// jiaohao-branches-FROM or jiaohao-branches-FROM_TO.
func BranchesFileStem(from, to string) string { return stem("jiaohao-branches-", from, to) }

func stem(prefix, from, to string) string {
	if to == "" || to == from {
		return prefix + from
	}
	return prefix + from + "_" + to
}

// SaveInDir writes f into dir as NAME.pdf with NAME.csv beside it, all or
// nothing, and returns the PDF's path.
func (f Files) SaveInDir(dir string) (string, error) {
	pdf := filepath.Join(dir, f.Name+".pdf")
	return pdf, WriteFiles(map[string][]byte{pdf: f.PDF, filepath.Join(dir, f.Name+".csv"): f.CSV})
}

// SaveInDir writes the report of the days from..to (YYYY-MM-DD) into dir as
// jiaohao-report-FROM[_TO].pdf with the CSV beside it, and returns the PDF
// path: the manager screen's "generate" button in one call.
func SaveInDir(ctx context.Context, src Source, from, to string, lang Lang, dir string) (string, error) {
	f, err := Render(ctx, src, from, to, lang)
	if err != nil {
		return "", err
	}
	return f.SaveInDir(dir)
}
