package peer

import (
	"context"
	"net/http"
	"regexp"
	"time"

	"jiaohao/model"
)

// The manager's pages that need the host's database: terminals and their
// tokens, and the daily report. A manager PC that connects through the
// peer server reaches them here.

// Report is a rendered report as it travels to a manager PC: the file name
// stem the PDF and the CSV share, and both files (base64 in JSON).
type Report struct {
	Name string `json:"name"`
	PDF  []byte `json:"pdf"`
	CSV  []byte `json:"csv"`
}

// ReportFunc renders the report of the business days from..to
// (YYYY-MM-DD) in lang ("zh" or "en") on the host.
type ReportFunc func(ctx context.Context, from, to, lang string) (Report, error)

// ReportTimeout bounds one report: a month over a busy branch's history
// takes seconds, far more than a queue action.
const ReportTimeout = 5 * time.Minute

type terminalRequest struct {
	Name      string     `json:"name"`
	Role      model.Role `json:"role"`
	Window    int        `json:"window"`
	TokenHash string     `json:"token_hash"`
}

var tokenHashPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// validate checks the form; the store checks the rest (a caller's window
// exists). Only the hash travels: the token stays on the manager's PC
// until it is shown.
func (q terminalRequest) validate() error {
	if err := model.CheckTerminalName(q.Name); err != nil {
		return err
	}
	if !q.Role.Valid() {
		return invalid("角色须为 %s (unknown role)", model.RoleNames("、", " 或 "))
	}
	if err := validWindow(q.Window, true); err != nil {
		return err
	}
	if !tokenHashPattern.MatchString(q.TokenHash) {
		return invalid("令牌哈希须为 64 位十六进制 (token_hash must be 64 hex digits)")
	}
	return nil
}

func (s *Server) terminals(w http.ResponseWriter, r *http.Request, _ principal) error {
	ts, err := s.terms.Terminals(r.Context())
	if ts == nil {
		ts = []model.Terminal{}
	}
	return answer(w, ts, err)
}

func (s *Server) addTerminal(w http.ResponseWriter, r *http.Request, _ principal) error {
	q, err := decode[terminalRequest](r, false)
	if err != nil {
		return err
	}
	t, err := s.terms.AddTerminal(r.Context(), model.Terminal{Name: q.Name, Role: q.Role, Window: q.Window, TokenHash: q.TokenHash})
	if err != nil {
		return err
	}
	s.known.put(t, time.Now())
	writeJSON(w, http.StatusCreated, t)
	return nil
}

func (s *Server) revokeTerminal(w http.ResponseWriter, r *http.Request, p principal) error {
	id, err := parseDigits(r.PathValue("id"), 18)
	if err != nil || id < 1 {
		return invalid("终端编号须为正整数 (terminal id must be a positive integer)")
	}
	if p.ID != 0 && id == p.ID {
		// The manager would lock itself out with no way back from this PC.
		return invalid("不能吊销本机正在使用的令牌 (this PC's own token cannot be revoked from this PC)")
	}
	if err := s.terms.RevokeTerminal(r.Context(), id); err != nil {
		return err
	}
	s.known.revoke(id)
	s.endStreams(id)
	s.staff.endTerminal(id)
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "revoked": true})
	return nil
}

var reportDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func (s *Server) report(w http.ResponseWriter, r *http.Request, _ principal) error {
	if s.opts.Report == nil {
		return model.Errorf(model.EUnavailable, "这台网点服务器不生成报表 (this branch server does not make reports)")
	}
	from, to, lang, err := reportQuery(r.URL.Query())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), ReportTimeout)
	defer cancel()
	rep, err := s.opts.Report(ctx, from, to, lang)
	return answer(w, rep, err)
}
