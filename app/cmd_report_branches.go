package app

import (
	"context"
	"fmt"
	"io"
	"strings"

	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

// reportBranches reads report's --branch: one code (or none) is that
// branch's own report; all, or codes separated by commas, the report over
// several. The codes are checked for form and repeats here, before the
// database is opened; nil codes with many mean every branch.
func reportBranches(value string) (codes []string, many bool, err error) {
	value = strings.TrimSpace(value)
	if strings.EqualFold(value, model.AllBranches) {
		return nil, true, nil
	}
	if !strings.Contains(value, ",") {
		return nil, false, nil
	}
	if codes, err = model.BranchCodes(value); err != nil {
		return nil, false, err
	}
	return codes, true, nil
}

// reportOverBranches writes the report over the branches of codes (nil:
// every branch of the database), each read through the one pool. A code
// the database does not hold stops it before anything is written.
func reportOverBranches(ctx context.Context, dsn string, codes []string, first, last string, lang reports.Lang, pdfPath, csvPath string, stdout io.Writer) error {
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := notOverDatabase(st.File(), pdfPath, csvPath); err != nil {
		return err
	}
	bs, done, err := branchSources(ctx, st, codes)
	defer done()
	if err != nil {
		return err
	}
	r, err := reports.SaveBranches(ctx, bs, first, last, lang, pdfPath, csvPath)
	if err != nil {
		return err
	}
	t := r.Total.Totals
	fmt.Fprintf(stdout, "已生成 %d 个网点 %s 的报表 %s：取号 %d，完成 %d，过号 %d\n", len(r.Branches), r.Period(), pdfPath, t.Taken, t.Done, t.Passed)
	return nil
}

// branchSources are the report sources of the branches of codes (nil:
// every branch), each a store of st's one pool; a code the database does
// not hold is refused before anything is read. done closes the stores
// opened, whatever the error.
func branchSources(ctx context.Context, st *sqlstore.GormStore, codes []string) (bs []reports.BranchSource, done func(), err error) {
	var open []*sqlstore.GormStore
	done = func() {
		for _, s := range open {
			s.Close()
		}
	}
	all, err := st.Branches(ctx)
	if err != nil {
		return nil, done, err
	}
	picked, err := pickBranches(all, codes)
	if err != nil {
		return nil, done, err
	}
	for _, b := range picked {
		src, err := st.Branch(ctx, b.Code)
		if err != nil {
			return nil, done, err
		}
		open = append(open, src)
		bs = append(bs, reports.BranchSource{Code: b.Code, Name: b.Name, Src: src})
	}
	return bs, done, nil
}

// hqReport renders head office's report over the branches of codes on
// the host serving them all (serve --branch all).
func hqReport(st *sqlstore.GormStore) peer.HQReportFunc {
	return func(ctx context.Context, codes []string, from, to, lang string) (peer.Report, error) {
		l, err := reports.ParseLang(lang)
		if err != nil {
			return peer.Report{}, err
		}
		bs, done, err := branchSources(ctx, st, codes)
		defer done()
		if err != nil {
			return peer.Report{}, err
		}
		f, err := reports.RenderBranches(ctx, bs, from, to, l)
		return peer.Report{Name: f.Name, PDF: f.PDF, CSV: f.CSV}, err
	}
}

// pickBranches is the branches of codes in their order, all of them for
// nil codes; codes the database lacks are one sentence naming them and
// the codes it has.
func pickBranches(all []model.BranchInfo, codes []string) ([]model.BranchInfo, error) {
	if codes == nil {
		return all, nil
	}
	byCode := map[string]model.BranchInfo{}
	have := make([]string, len(all))
	for i, b := range all {
		byCode[b.Code], have[i] = b, b.Code
	}
	var out []model.BranchInfo
	var missing []string
	for _, c := range codes {
		b, ok := byCode[c]
		if !ok {
			missing = append(missing, c)
			continue
		}
		out = append(out, b)
	}
	if len(missing) > 0 {
		m, h := strings.Join(missing, ", "), strings.Join(have, ", ")
		return nil, model.Errorf(model.EInvalidInput, "没有代码为 %s 的网点；数据库中的网点：%s (no branch has the code %s; the database holds %s)", m, h, m, h)
	}
	return out, nil
}
