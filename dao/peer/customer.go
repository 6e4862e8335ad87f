package peer

import (
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/base64"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/text/language"

	"jiaohao/model"
)

// The customer page: one ticket, by its random public id, live. It needs no
// token and shows nothing about anyone else.

//go:embed customer.html
var customerHTML string

var customerTmpl = template.Must(template.New("t").Parse(customerHTML))

// customerView is all a customer sees.
type customerView struct {
	Number  string `json:"number"`
	Service string `json:"service"`
	Status  string `json:"status"`
	Window  int    `json:"window"`
	// Area is where to wait, when the branch has more than one area.
	Area   string `json:"area,omitempty"`
	Ahead  int    `json:"ahead"`
	ETAMin int    `json:"eta_min"`
	// NoWindow: no open window serves it now, so eta_min is no wait to show.
	NoWindow bool `json:"no_window,omitempty"`
}

// pageRate is the rating's state when the page loads: the score given
// (0: none), or whether a done ticket may still be rated. The live views
// carry neither (every page of a change gets the same view, read once),
// so the page keeps it and learns the rest from its own rating's answer.
type pageRate struct {
	Rated int  `json:"rated,omitempty"`
	Open  bool `json:"rate_open,omitempty"`
}

// rateState is t's pageRate.
func (s *Server) rateState(ctx context.Context, t model.Ticket) pageRate {
	var out pageRate
	if t.Status != model.Done || t.FinishedAt == nil {
		return out
	}
	if out.Rated = s.pageRated(ctx, t.ID); out.Rated == 0 {
		st, err1 := s.store.Settings(ctx)
		now, err2 := s.store.Now(ctx)
		out.Open = err1 == nil && err2 == nil && model.RatingOpen(*t.FinishedAt, now, st.RatingWindow)
	}
	return out
}

// labels are the page's words in one language.
type labels map[string]string

var pageLabels = map[string]labels{
	"zh": {"lang": "zh-CN", "title": "我的排队号", "service": "业务", "area": "等候区", "ahead": "前面还有", "people": "人",
		"eta": "预计等待", "minutes": "分钟", "nowindow": "暂无窗口办理，请稍候", "waiting": "等待中", "called": "请到 {w} 号窗口",
		"passed": "已过号，请到窗口咨询", "serving": "正在办理", "done": "已办结", "cancelled": "已取消",
		"notfound": "没有这个号码", "offline": "连接中断，正在重连…",
		"rate": "请为本次服务评价", "score4": "非常满意", "score3": "满意", "score2": "一般", "score1": "不满意",
		"comment": "留言（选填）", "thanks": "感谢您的评价！", "rated": "您已评价：",
		"tag_friendly": "态度好", "tag_skilled": "业务熟练", "tag_fast": "效率高", "tag_clear": "解释清楚",
		"tag_wait_long": "等待时间长", "tag_slow": "办理慢", "tag_unclear": "解释不清", "tag_unfriendly": "态度差"},
	"en": {"lang": "en", "title": "My queue number", "service": "Service", "area": "Waiting area", "ahead": "Ahead of you", "people": "",
		"eta": "Estimated wait", "minutes": "min", "nowindow": "No window serving now, please wait", "waiting": "Waiting", "called": "Please go to window {w}",
		"passed": "Passed — please ask at a window", "serving": "Being served", "done": "Done", "cancelled": "Cancelled",
		"notfound": "No such ticket", "offline": "Connection lost, reconnecting…",
		"rate": "How was our service?", "score4": "Very satisfied", "score3": "Satisfied", "score2": "Fair", "score1": "Unsatisfied",
		"comment": "Comment (optional)", "thanks": "Thank you for your rating!", "rated": "Your rating: ",
		"tag_friendly": "Friendly", "tag_skilled": "Knowledgeable", "tag_fast": "Quick", "tag_clear": "Clear explanation",
		"tag_wait_long": "Long wait", "tag_slow": "Slow service", "tag_unclear": "Unclear explanation", "tag_unfriendly": "Unfriendly"},
}

var langMatcher = language.NewMatcher([]language.Tag{language.Chinese, language.English})

// pageLang picks zh or en from Accept-Language; Chinese when unsure.
func pageLang(r *http.Request) string {
	tags, _, err := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	if err != nil || len(tags) == 0 {
		return "zh"
	}
	if _, i, _ := langMatcher.Match(tags...); i == 1 {
		return "en"
	}
	return "zh"
}

// view builds what the customer sees, or not_found.
func (s *Server) view(ctx context.Context, pid string) (customerView, model.Ticket, error) {
	if !validPublicID(pid) {
		return customerView{}, model.Ticket{}, model.Errorf(model.ENotFound, "没有这个号码 (no such ticket)")
	}
	t, err := s.store.TicketByPublicID(ctx, pid)
	if err != nil {
		return customerView{}, model.Ticket{}, err
	}
	names, _ := s.pageNames(ctx) // without them the page shows the code
	var pos model.Position
	if t.Status == model.Waiting {
		pos, _ = s.store.Position(ctx, t.ID) // the page shows the number even if this fails
	}
	return makeView(t, names, pos), t, nil
}

func (s *Server) customerPage(w http.ResponseWriter, r *http.Request) {
	lang := pageLang(r)
	v, t, err := s.view(r.Context(), r.PathValue("pid"))
	status := http.StatusOK
	var rate pageRate
	if err != nil {
		status = httpStatus(model.ErrorCode(err))
	} else {
		rate = s.rateState(r.Context(), t)
	}
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	n := base64.RawStdEncoding.EncodeToString(nonce)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer") // the URL is the customer's key
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; connect-src 'self'; script-src 'nonce-"+n+"'; style-src 'nonce-"+n+"'; frame-ancestors 'none'")
	var buf bytes.Buffer
	data := map[string]any{"L": pageLabels[lang], "View": v, "Found": err == nil, "Nonce": n, "Tags": model.RatingTags, "Rate": rate,
		"PollMS": s.opts.LivePollEvery.Milliseconds()}
	if err := customerTmpl.Execute(&buf, data); err != nil {
		writeError(w, err)
		return
	}
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// customerView is GET /t/{pid}/view: the view once, for a page that was
// refused a live socket and polls instead.
func (s *Server) customerViewJSON(w http.ResponseWriter, r *http.Request) {
	v, _, err := s.view(r.Context(), r.PathValue("pid"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// customerLive is the page's WebSocket: the view now, then again whenever
// it changes. Past the caps (per ticket, per client address) it answers
// 429 with Retry-After before upgrading, and the page polls
// /t/{pid}/view instead.
func (s *Server) customerLive(w http.ResponseWriter, r *http.Request) {
	pg, first, leave, err := s.live.join(r.Context(), r.PathValue("pid"), remoteHost(r))
	if err != nil {
		if model.IsCode(err, model.ERateLimited) {
			w.Header().Set("Retry-After", strconv.Itoa(int(s.opts.LivePollEvery.Seconds())))
		}
		writeError(w, err)
		return
	}
	defer leave()
	conn, err := websocket.Accept(w, r, nil) // same-origin only
	if err != nil {
		return
	}
	defer conn.CloseNow()
	ctx := conn.CloseRead(r.Context())
	write := func(b []byte) bool {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return conn.Write(wctx, websocket.MessageText, b) == nil
	}
	if !write(first) {
		return
	}
	ping := time.NewTicker(s.opts.PingEvery)
	defer ping.Stop()
	for {
		select {
		case b := <-pg.ch:
			if !write(b) {
				return
			}
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, s.pingTimeout())
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return
			}
		case <-pg.gone:
			conn.Close(websocket.StatusNormalClosure, "gone")
			return
		case <-s.ctx.Done():
			conn.Close(websocket.StatusGoingAway, "server shutting down")
			return
		case <-ctx.Done():
			return
		}
	}
}

// pageService is what the customer page says of a service: its name and,
// when the branch has more than one area, the area its customers wait in.
type pageService struct{ name, area string }

// pageNames reads the services and, from a store that keeps areas, where
// each one's customers wait.
func (s *Server) pageNames(ctx context.Context) (map[string]pageService, error) {
	svcs, err := s.store.Services(ctx)
	if err != nil {
		return nil, err
	}
	label := map[int64]string{}
	if a, ok := s.store.(model.Areas); ok {
		areas, err := a.Areas(ctx)
		if err != nil {
			return nil, err
		}
		for _, ar := range areas {
			if len(areas) > 1 {
				label[ar.ID] = ar.Label()
			}
		}
	}
	out := make(map[string]pageService, len(svcs))
	for _, sv := range svcs {
		out[sv.Code] = pageService{name: sv.Name, area: label[sv.Area]}
	}
	return out, nil
}
