package reports

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"jiaohao/model"
)

// WriteFiles writes each path's bytes so that either every file is complete
// or none is changed: each goes to a temporary file in the same directory
// first, and only when all are written are they renamed into place.
func WriteFiles(files map[string][]byte) (err error) {
	temps := map[string]string{}
	defer func() {
		for _, tmp := range temps {
			os.Remove(tmp) // after a successful rename this finds nothing
		}
	}()
	for path, data := range files {
		tmp, werr := writeTemp(path, data)
		if werr != nil {
			return werr
		}
		temps[path] = tmp
	}
	for path, tmp := range temps {
		if rerr := os.Rename(tmp, path); rerr != nil {
			return cannotWrite(path)
		}
	}
	return nil
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
func FileStem(from, to string) string {
	if to == "" || to == from {
		return "jiaohao-report-" + from
	}
	return "jiaohao-report-" + from + "_" + to
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
