package app

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// jiaohao bench prints one JSON line whose counts come from the database.
func TestBenchCommand(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "b.db")
	var out, errOut bytes.Buffer
	if code := run([]string{"bench", "--db", dsn, "--windows", "4", "--tickets", "200"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var r benchResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("not one JSON line: %q", out.String())
	}
	if r.Engine != "sqlite" || r.Calls != 200 || r.Duplicates != 0 || r.Skipped != 0 || r.CallsPerS <= 0 || r.P99ms < r.P50ms {
		t.Fatalf("result %+v", r)
	}
}

func TestBenchRejectsBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"bench"},
		{"bench", "--db", "sqlite:/tmp/x.db", "--windows", "0"},
		{"bench", "--db", "sqlite:/tmp/x.db", "--tickets", "-5"},
		{"bench", "--nope"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 {
			t.Fatalf("%v: exit %d", args, code)
		}
		if lines := strings.Count(strings.TrimSpace(errOut.String()), "\n"); !strings.Contains(errOut.String(), "jiaohao: ") || strings.Contains(errOut.String(), "goroutine") || lines > 3 {
			t.Fatalf("%v: %q", args, errOut.String())
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"frobnicate"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "unknown command") {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
}
