package peer

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"jiaohao/model"
)

// HQReportFunc renders the report over the branches of codes (nil: every
// branch of the database) and the business days from..to (YYYY-MM-DD,
// each branch's own) in lang ("zh" or "en").
type HQReportFunc func(ctx context.Context, codes []string, from, to, lang string) (Report, error)

// report answers GET /api/v1/hq/reports?branches=C1,C2|all&from=D1&to=D2&lang=zh:
// the PDF and CSV over those branches, as a branch's manager gets theirs
// from /api/v1/reports. Every argument is checked before a branch is read.
func (h *headOffice) report(w http.ResponseWriter, r *http.Request, _ principal) error {
	if h.opts.Report == nil {
		return model.Errorf(model.EUnavailable, "这台服务器不生成各网点报表 (this server does not make reports over branches)")
	}
	q := r.URL.Query()
	from, to, lang, err := reportQuery(q)
	if err != nil {
		return err
	}
	codes, err := model.BranchCodes(q.Get("branches"))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), ReportTimeout)
	defer cancel()
	rep, err := h.opts.Report(ctx, codes, from, to, lang)
	return answer(w, rep, err)
}

// reportQuery reads a report's days and language: to defaults to from,
// lang to zh.
func reportQuery(q url.Values) (from, to, lang string, err error) {
	from, to, lang = q.Get("from"), q.Get("to"), q.Get("lang")
	if to == "" {
		to = from
	}
	if !reportDate.MatchString(from) || !reportDate.MatchString(to) {
		return "", "", "", invalid("日期须为 YYYY-MM-DD (from and to must be YYYY-MM-DD)")
	}
	if lang == "" {
		lang = "zh"
	}
	if lang != "zh" && lang != "en" {
		return "", "", "", invalid("报表语言须为 zh 或 en (lang must be zh or en)")
	}
	return from, to, lang, nil
}

// HQReport fetches head office's report over the branches of codes (nil:
// every branch) for the days from..to, rendered on the host.
func (c *Client) HQReport(ctx context.Context, codes []string, from, to, lang string) (Report, error) {
	var rep Report
	q := url.Values{"from": {from}, "to": {to}, "lang": {lang}}
	if len(codes) > 0 {
		q.Set("branches", strings.Join(codes, ","))
	}
	// A little longer than the host allows, so a slow report ends with the
	// host's answer, not with "unreachable".
	return rep, c.doWithin(ctx, ReportTimeout+30*time.Second, http.MethodGet, "/api/v1/hq/reports?"+q.Encode(), nil, &rep)
}
