package sqlstore

import (
	"testing"

	"jiaohao/model"
)

// Every scheme reaches its own dialect, and a DSN of no engine is the one
// sentence listing the forms, as it was when parseDSN switched on them.
func TestSchemesReachTheirDialect(t *testing.T) {
	for _, d := range dialects {
		for _, scheme := range d.schemes() {
			if got, err := dialectOf(scheme + "://u@db/q"); err != nil || got.name() != d.name() {
				t.Errorf("%s: %v, want %s", scheme, err, d.name())
			}
		}
	}
	if d, err := dialectOf("PostgreSQL://u@db/q"); err != nil || d.name() != "postgres" {
		t.Errorf("schemes are case-insensitive: %v", err)
	}
	_, err := parseDSN("oracle://u:secretpw@db/q", isolationVar)
	want := `不支持的数据库连接串 "oracle://u:xxxxx@db/q"：请用 sqlite:PATH、postgres://…、mysql://… 或 sqlserver://… (unsupported connection string)`
	if model.ErrorCode(err) != model.EInvalidInput || err.Error() != want {
		t.Errorf("unknown scheme: %v (%s)\nwant %s", err, model.ErrorCode(err), want)
	}
}
