package peer

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"jiaohao/model"
)

// MaxBody is the largest request body accepted; anything longer is refused
// before it is parsed.
const MaxBody = 64 << 10

// Requests as they arrive. Every decoder is strict: unknown fields, keys in
// another case, repeated keys, trailing data, wrong types and values outside
// the store's limits (model/limits.go) are invalid input, never a 500 and
// never a change of state.
type (
	takeRequest struct {
		Service  string `json:"service"`
		Priority int    `json:"priority"`
	}
	callRequest struct {
		Service string `json:"service"`
	}
	actionRequest struct {
		Window int `json:"window"`
	}
	transferRequest struct {
		Window     int    `json:"window"`
		Service    string `json:"service"`
		FromWindow int    `json:"from_window"` // acting window; callers' own by default
	}
	statusRequest struct {
		Status string `json:"status"`
	}
	servicesRequest struct {
		Services []string `json:"services"`
		// AllowedOnly limits the change to the services the manager
		// allowed the window, as for a clerk, whatever the token; a
		// caller's token is always limited.
		AllowedOnly bool `json:"allowed_only,omitempty"`
	}
	windowRequest struct {
		Name     string   `json:"name"`
		Status   string   `json:"status"`
		Services []string `json:"services"`
		// Allowed absent keeps what the window is allowed; a list, even
		// [], replaces it (the services it serves are always allowed).
		Allowed *[]string `json:"allowed,omitempty"` // a pointer, so [] is sent and told from absent
	}
	serviceRequest struct {
		Name      string `json:"name"`
		Priority  int    `json:"priority"`
		StartNo   int    `json:"start_no"`
		Width     int    `json:"width"`
		Enabled   bool   `json:"enabled"`
		SortOrder int    `json:"sort_order"`
		// Area absent or 0 keeps the service's area (a new one: the
		// default area).
		Area int64 `json:"area,omitempty"`
	}
	settingRequest struct {
		Value string `json:"value"`
	}
	deviceRequest struct {
		Kind  string `json:"kind"`
		Fault string `json:"fault"`
	}
)

func invalid(format string, args ...any) error {
	return model.Errorf(model.EInvalidInput, format, args...)
}

// readBody reads at most MaxBody bytes; a longer body is invalid input.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		return nil, invalid("请求内容读取失败 (could not read the request body)")
	}
	if len(b) > MaxBody {
		return nil, invalid("请求内容超过 64 KiB (request body over 64 KiB)")
	}
	return b, nil
}

// decodeStrict fills v from one JSON object. An empty body is allowed only
// when optional.
func decodeStrict(body []byte, v any, optional bool) error {
	if len(bytes.TrimSpace(body)) == 0 {
		if optional {
			return nil
		}
		return invalid("缺少请求内容 (request body required)")
	}
	if !utf8.Valid(body) {
		return invalid("请求内容不是合法的 UTF-8 (request body is not UTF-8)")
	}
	if err := checkKeys(body, jsonFields(reflect.TypeOf(v).Elem())); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalid("请求内容不是合法的 JSON 对象 (%s)", jsonProblem(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return invalid("请求内容在 JSON 对象之后还有多余数据 (trailing data after the JSON object)")
	}
	return nil
}

// checkKeys walks the top-level keys of body before it is decoded.
// encoding/json matches keys regardless of case and lets the last of a
// repeated key win, so {"service":"A","service":"B"} would issue a B:
// here each key must be one of the request's field names exactly, once,
// and nothing may follow the object.
func checkKeys(body []byte, fields map[string]bool) error {
	malformed := invalid("请求内容不是合法的 JSON 对象 (malformed JSON)")
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return invalid("请求内容须为一个 JSON 对象 (request body must be one JSON object)")
	}
	seen := make(map[string]bool, len(fields))
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return malformed
		}
		switch {
		case !fields[key]:
			return invalid("未知字段 %s (unknown field; names are case-sensitive)", quoteShort(key))
		case seen[key]:
			return invalid("字段 %s 重复 (field given twice)", quoteShort(key))
		}
		seen[key] = true
		if err := skipValue(dec); err != nil {
			return malformed
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return malformed
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return invalid("请求内容在 JSON 对象之后还有多余数据 (trailing data after the JSON object)")
	}
	return nil
}

// skipValue reads one value, however deeply nested.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// quoteShort names a key in a message without echoing a long input back.
func quoteShort(s string) string {
	if len(s) > 40 {
		return "(too long)"
	}
	return strconv.Quote(s)
}

var fieldCache sync.Map // reflect.Type -> map[string]bool

// jsonFields is the set of JSON names of a request struct's fields.
func jsonFields(t reflect.Type) map[string]bool {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]bool)
	}
	m := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported():
		case name == "":
			m[f.Name] = true
		default:
			m[name] = true
		}
	}
	fieldCache.Store(t, m)
	return m
}

// jsonProblem names what is wrong without echoing the input back.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "wrong type for field " + strconv.Quote(te.Field)
	}
	if msg := err.Error(); len(msg) < 120 {
		return msg
	}
	return "malformed JSON"
}

// validWindow checks a window number; zero is allowed only where it means
// "none given".
func validWindow(n int, zeroOK bool) error {
	if n == 0 && zeroOK {
		return nil
	}
	return model.CheckWindowNo(n)
}

func (q takeRequest) validate() error {
	if err := model.CheckServiceCode(q.Service); err != nil {
		return err
	}
	if q.Priority != 0 {
		return model.CheckPriority(q.Priority)
	}
	return nil
}

func (q callRequest) validate() error {
	if q.Service == "" {
		return nil
	}
	return model.CheckServiceCode(q.Service)
}

func (q actionRequest) validate() error { return validWindow(q.Window, true) }

func (q transferRequest) validate() error {
	if err := validWindow(q.FromWindow, true); err != nil {
		return err
	}
	switch {
	case q.Window != 0 && q.Service == "":
		return validWindow(q.Window, false)
	case q.Service != "" && q.Window == 0:
		return model.CheckServiceCode(q.Service)
	}
	return invalid("转移须指定一个目标窗口或一个目标业务 (give either window or service)")
}

func (q statusRequest) validate() error {
	_, err := model.ParseWindowStatus(q.Status)
	return err
}

func (q servicesRequest) validate() error { return model.CheckServiceList(q.Services) }

// validate checks the fields against the store's own limits (the store
// trims names too); the window number comes from the path.
func (q windowRequest) validate() error {
	if err := model.CheckName("窗口名称", "window name", strings.TrimSpace(q.Name)); err != nil {
		return err
	}
	if q.Status != "" {
		if _, err := model.ParseWindowStatus(q.Status); err != nil {
			return err
		}
	}
	if q.Allowed != nil {
		if err := model.CheckServiceList(*q.Allowed); err != nil {
			return err
		}
	}
	return model.CheckServiceList(q.Services)
}

// validate checks the fields against the store's own limits; the code
// comes from the path and is checked there.
func (q serviceRequest) validate() error {
	if q.Area < 0 {
		return invalid("等候区编号须为正整数 (area id must be a positive integer)")
	}
	return model.CheckService(model.Service{Code: "A", Name: strings.TrimSpace(q.Name), Priority: q.Priority,
		StartNo: q.StartNo, Width: q.Width, SortOrder: q.SortOrder})
}

func (q settingRequest) validate() error {
	if len(q.Value) > model.MaxSettingLen {
		return invalid("设置值超过 %d 字节 (value longer than %d bytes)", model.MaxSettingLen, model.MaxSettingLen)
	}
	return nil
}

func (q deviceRequest) validate() error {
	if !model.DeviceKinds[q.Kind] {
		return invalid("设备须为 printer、voice 或 led (unknown device)")
	}
	return model.CheckFault(strings.TrimSpace(q.Fault))
}

// validator is every request type.
type validator interface{ validate() error }

// decode reads, decodes and validates one request body.
func decode[T validator](r *http.Request, optional bool) (T, error) {
	var v T
	body, err := readBody(r)
	if err != nil {
		return v, err
	}
	if err := decodeStrict(body, &v, optional); err != nil {
		return v, err
	}
	return v, v.validate()
}
