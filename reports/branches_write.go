package reports

import "context"

// SaveBranches generates the report over the branches bs and the days
// first..last and writes the PDF and, when csvPath is not empty, the CSV,
// all or nothing, as Save does for one branch.
func SaveBranches(ctx context.Context, bs []BranchSource, first, last string, lang Lang, pdfPath, csvPath string) (BranchesReport, error) {
	r, f, err := renderBranches(ctx, bs, first, last, lang, csvPath != "")
	if err != nil {
		return BranchesReport{}, err
	}
	files := map[string][]byte{pdfPath: f.PDF}
	if csvPath != "" {
		files[csvPath] = f.CSV
	}
	return r, WriteFiles(files)
}

// RenderBranches generates the report over the branches bs in memory, named
// jiaohao-branches-FROM[_TO], for a server to send.
func RenderBranches(ctx context.Context, bs []BranchSource, first, last string, lang Lang) (Files, error) {
	_, f, err := renderBranches(ctx, bs, first, last, lang, true)
	return f, err
}

func renderBranches(ctx context.Context, bs []BranchSource, first, last string, lang Lang, withCSV bool) (BranchesReport, Files, error) {
	r, err := GenerateBranches(ctx, bs, first, last, Options{})
	if err != nil {
		return BranchesReport{}, Files{}, err
	}
	f := Files{Name: BranchesFileStem(first, last)}
	if f.PDF, err = BranchesPDF(r, lang); err != nil {
		return BranchesReport{}, Files{}, err
	}
	if withCSV {
		if f.CSV, err = BranchesCSV(r); err != nil {
			return BranchesReport{}, Files{}, err
		}
	}
	return r, f, nil
}
