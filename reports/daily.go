package reports

import (
	"context"
	"os"
	"path/filepath"

	"jiaohao/model"
)

// Daily is one business day's report and its health summary, made from
// one read of the day's facts.
type Daily struct {
	Report Report
	Health Health
}

// NewDaily reads the business day date and builds its report and health
// summary; the health figures are the report's own.
func NewDaily(ctx context.Context, src Source, date string, opt Options) (Daily, error) {
	p, err := Day(date, src.Location())
	if err != nil {
		return Daily{}, err
	}
	r, err := Generate(ctx, src, p, opt)
	if err != nil {
		return Daily{}, err
	}
	return Daily{Report: r, Health: HealthOf(r)}, nil
}

// Save writes the day's four files (model.HealthFiles) into dir, creating
// it, all or nothing: a half-written day never replaces a whole one.
func (d Daily) Save(dir string, lang Lang) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return model.Errorf(model.EInvalidInput, "无法创建文件夹 %s (cannot create the folder)", dir)
	}
	var out [4][]byte
	var err error
	if out[0], err = PDF(d.Report, lang); err != nil {
		return err
	}
	if out[1], err = CSV(d.Report); err != nil {
		return err
	}
	if out[2], err = HealthPDF(d.Health, lang); err != nil {
		return err
	}
	if out[3], err = HealthCSV(d.Health); err != nil {
		return err
	}
	files := map[string][]byte{}
	for i, name := range model.HealthFiles(d.Health.Date) {
		files[filepath.Join(dir, name)] = out[i]
	}
	return WriteFiles(files)
}
