package peer

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"unicode"
	"unicode/utf8"

	"jiaohao/model"
)

// MaxBody is the largest request body accepted; anything longer is refused
// before it is parsed.
const MaxBody = 64 << 10

// Requests as they arrive. Every decoder is strict: unknown fields, trailing
// data, wrong types and out-of-range values are invalid input, never a 500
// and never a change of state.
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
	}
	windowRequest struct {
		Name     string   `json:"name"`
		Status   string   `json:"status"`
		Services []string `json:"services"`
	}
	serviceRequest struct {
		Name      string `json:"name"`
		Priority  int    `json:"priority"`
		StartNo   int    `json:"start_no"`
		Width     int    `json:"width"`
		Enabled   bool   `json:"enabled"`
		SortOrder int    `json:"sort_order"`
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

func validService(code string) error {
	if len(code) < 1 || len(code) > 4 {
		return invalid("业务代码须为 1 到 4 个大写字母或数字 (service code must be 1-4 of A-Z, 0-9)")
	}
	for _, c := range code {
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return invalid("业务代码须为 1 到 4 个大写字母或数字 (service code must be 1-4 of A-Z, 0-9)")
		}
	}
	return nil
}

func validServices(codes []string) error {
	if len(codes) > 64 {
		return invalid("业务过多 (too many services)")
	}
	seen := make(map[string]bool, len(codes))
	for _, c := range codes {
		if err := validService(c); err != nil {
			return err
		}
		if seen[c] {
			return invalid("业务 %s 重复 (service listed twice)", c)
		}
		seen[c] = true
	}
	return nil
}

// validWindow checks a window number; zero is allowed only where it means
// "none given".
func validWindow(n int, zeroOK bool) error {
	if (n == 0 && zeroOK) || (n >= 1 && n <= 999) {
		return nil
	}
	return invalid("窗口号须在 1 到 999 之间 (window must be 1-999)")
}

func validName(s string, max int) error {
	if utf8.RuneCountInString(s) > max {
		return invalid("名称超过 %d 个字 (name longer than %d characters)", max, max)
	}
	for _, c := range s {
		if unicode.IsControl(c) || c == utf8.RuneError {
			return invalid("名称含有控制字符 (name contains control characters)")
		}
	}
	return nil
}

func (q takeRequest) validate() error {
	if err := validService(q.Service); err != nil {
		return err
	}
	if q.Priority != 0 && (q.Priority < model.MinPriority || q.Priority > model.MaxPriority) {
		return invalid("优先级须在 %d 到 %d 之间 (priority must be %d-%d)", model.MinPriority, model.MaxPriority, model.MinPriority, model.MaxPriority)
	}
	return nil
}

func (q callRequest) validate() error {
	if q.Service == "" {
		return nil
	}
	return validService(q.Service)
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
		return validService(q.Service)
	}
	return invalid("转移须指定一个目标窗口或一个目标业务 (give either window or service)")
}

func (q statusRequest) validate() error {
	_, err := model.ParseWindowStatus(q.Status)
	return err
}

func (q servicesRequest) validate() error { return validServices(q.Services) }

func (q windowRequest) validate() error {
	if err := validName(q.Name, 40); err != nil {
		return err
	}
	if q.Status != "" {
		if _, err := model.ParseWindowStatus(q.Status); err != nil {
			return err
		}
	}
	return validServices(q.Services)
}

func (q serviceRequest) validate() error {
	if err := validName(q.Name, 40); err != nil {
		return err
	}
	switch {
	case q.Name == "":
		return invalid("业务名称不能为空 (service name required)")
	case q.Priority < model.MinPriority || q.Priority > model.MaxPriority:
		return invalid("优先级须在 %d 到 %d 之间 (priority must be %d-%d)", model.MinPriority, model.MaxPriority, model.MinPriority, model.MaxPriority)
	case q.StartNo < 0 || q.StartNo > 100000:
		return invalid("起始号须在 0 到 100000 之间 (start_no must be 0-100000)")
	case q.Width < 0 || q.Width > 8:
		return invalid("号码位数须在 0 到 8 之间 (width must be 0-8)")
	case q.SortOrder < -1000000 || q.SortOrder > 1000000:
		return invalid("排序值超出范围 (sort_order out of range)")
	}
	return nil
}

func (q settingRequest) validate() error {
	if len(q.Value) > 1000 {
		return invalid("设置值过长 (value longer than 1000 bytes)")
	}
	return nil
}

func (q deviceRequest) validate() error {
	if !model.DeviceKinds[q.Kind] {
		return invalid("设备须为 printer、voice 或 led (unknown device)")
	}
	if len(q.Fault) > 1000 {
		return invalid("设备故障说明过长 (fault longer than 1000 bytes)")
	}
	return nil
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
