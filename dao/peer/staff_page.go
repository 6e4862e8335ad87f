package peer

import (
	"bytes"
	"crypto/rand"
	_ "embed"
	"encoding/base64"
	"html/template"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// The staff page: one embedded HTML file with its script, mobile first, in
// Chinese or English, with no outside resources.

//go:embed staff.html
var staffHTML string

var staffTmpl = template.Must(template.New("staff").Parse(staffHTML))

var staffLabels = map[string]labels{
	"zh": {"lang": "zh-CN", "other": "en", "otherName": "English", "title": "员工手持终端",
		"token": "手持终端令牌", "signin": "登录", "signout": "退出登录", "signingIn": "正在登录…",
		"take": "为顾客取号", "vip": "VIP 优先", "taken": "已取号", "ahead": "前面还有 {n} 人", "eta": "约 {m} 分钟", "nowindow": "暂无窗口办理，请稍候",
		"scan": "请顾客用手机扫码查看排队进度", "queue": "排队情况", "waitBefore": "等待 ", "waitAfter": " 人",
		"windows": "窗口", "passed": "过号（顾客回来可重新排队）", "nopassed": "暂无过号",
		"lookup": "查询号码", "lookupHint": "例如 A012", "find": "查询", "requeue": "重新排队", "cancel": "弃号",
		"confirmCancel": "确定为顾客弃号 {n}？", "offline": "连接中断，正在重连…", "done": "已完成：{n} {s}",
		"st.waiting": "等待中", "st.called": "已叫号", "st.passed": "已过号", "st.serving": "办理中", "st.done": "已完成", "st.cancelled": "已弃号",
		"ws.open": "开放", "ws.paused": "暂停", "ws.closed": "关闭", "ws.lunch": "午休中", "atWindow": "{w} 号窗口", "idle": "空闲",
		"error":   "操作失败",
		"printAt": "号票打印到", "qrOnly": "不打印，顾客扫码", "kiosk": "取号机 {k}（{id} 号）", "kioskOff": "{k}（离线）",
		"sent": "已发送到 {k} 打印", "sentOffline": "{k}离线：它恢复连接后自动打印，顾客可先扫码",
		"accepted": "{k}已接收"},
	"en": {"lang": "en", "other": "zh", "otherName": "中文", "title": "Staff handheld",
		"token": "Handheld token", "signin": "Sign in", "signout": "Sign out", "signingIn": "Signing in…",
		"take": "Take a number for a customer", "vip": "VIP first", "taken": "Number taken", "ahead": "{n} ahead", "eta": "about {m} min", "nowindow": "no window serving now, please wait",
		"scan": "Let the customer scan this to follow the queue", "queue": "Queue", "waitBefore": "", "waitAfter": " waiting",
		"windows": "Windows", "passed": "Passed — requeue when the customer returns", "nopassed": "No passed numbers",
		"lookup": "Look up a number", "lookupHint": "e.g. A012", "find": "Find", "requeue": "Requeue", "cancel": "Cancel",
		"confirmCancel": "Cancel {n} for the customer?", "offline": "Connection lost, reconnecting…", "done": "Done: {n} {s}",
		"st.waiting": "Waiting", "st.called": "Called", "st.passed": "Passed", "st.serving": "Being served", "st.done": "Done", "st.cancelled": "Cancelled",
		"ws.open": "Open", "ws.paused": "Paused", "ws.closed": "Closed", "ws.lunch": "Lunch break", "atWindow": "Window {w}", "idle": "idle",
		"error":   "Failed",
		"printAt": "Print the ticket at", "qrOnly": "No print, the customer scans", "kiosk": "Kiosk {k} (#{id})", "kioskOff": "{k} (offline)",
		"sent": "Sent to {k} to print", "sentOffline": "{k} is offline: it prints the ticket when it is back; the customer can scan the code now",
		"accepted": "{k} has it"},
}

// staffLang is ?lang= when the staff chose, else Accept-Language.
func staffLang(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); staffLabels[l] != nil {
		return l
	}
	return pageLang(r)
}

// staffPage is GET /staff: the page for a signed-in browser; without a
// session it sends the browser to sign in.
func (s *Server) staffPage(w http.ResponseWriter, r *http.Request) {
	if _, err := s.session(r); err != nil {
		http.Redirect(w, r, "/staff/login"+langQuery(r), http.StatusSeeOther)
		return
	}
	s.renderStaff(w, r, false)
}

// staffLoginPage is GET /staff/login; a browser already signed in goes on
// to the page.
func (s *Server) staffLoginPage(w http.ResponseWriter, r *http.Request) {
	if _, err := s.session(r); err == nil {
		http.Redirect(w, r, "/staff"+langQuery(r), http.StatusSeeOther)
		return
	}
	s.renderStaff(w, r, true)
}

// wsSource is the page's own event stream as a CSP source: older WebKit
// does not let 'self' match ws: or wss:, so the host the browser used is
// named with the served scheme. A Host that is not a plain host[:port]
// (it could carry CSP syntax) names nothing, and 'self' alone stays.
func wsSource(r *http.Request) string {
	host := r.Host
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = host, ""
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	if name == "" || len(host) > 255 || strings.Trim(port, "0123456789") != "" || len(port) > 5 {
		return ""
	}
	if ip, err := netip.ParseAddr(name); err == nil {
		if ip.Is6() && !strings.HasPrefix(host, "[") {
			return ""
		}
	} else {
		for _, c := range name {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
				return ""
			}
		}
	}
	scheme := "ws://"
	if r.TLS != nil {
		scheme = "wss://"
	}
	return " " + scheme + host
}

func langQuery(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); staffLabels[l] != nil {
		return "?lang=" + l
	}
	return ""
}

func (s *Server) renderStaff(w http.ResponseWriter, r *http.Request, login bool) {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	n := base64.RawStdEncoding.EncodeToString(nonce)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; connect-src 'self'"+wsSource(r)+"; img-src 'self'; script-src 'nonce-"+n+
		"'; style-src 'nonce-"+n+"'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
	lang := staffLang(r)
	var buf bytes.Buffer
	if err := staffTmpl.Execute(&buf, map[string]any{"L": staffLabels[lang], "Login": login, "Nonce": n}); err != nil {
		writeError(w, err)
		return
	}
	_, _ = w.Write(buf.Bytes())
}
