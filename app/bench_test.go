package app

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
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
		{"bench", "--db", "sqlite:/tmp/x.db", "--compare", "--rounds", "12"},
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

// bench --compare runs the design, seed 002's global-lock shape and the
// one-row ceiling on the same database, and prints every rate with the
// ratios. No threshold here: the numbers belong to the README.
func TestBenchCompareEveryEngine(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		var out, errOut bytes.Buffer
		if code := run([]string{"bench", "--db", dsn, "--windows", "4", "--tickets", "60", "--compare", "--rounds", "2"}, &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		var r benchResult
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("not one JSON line: %q", out.String())
		}
		// 2 rounds x 2 shapes x 60 tickets, every one called exactly once.
		if r.Rounds != 2 || r.Calls != 240 || r.Duplicates != 0 || r.Skipped != 0 {
			t.Fatalf("counts %+v", r)
		}
		if r.CallsPerS <= 0 || r.BaselineCallsPerS <= 0 || r.CeilingCallsPerS <= 0 || r.BaselineP99ms < r.BaselineP50ms {
			t.Fatalf("rates %+v", r)
		}
		if want := math.Round(r.CallsPerS/r.BaselineCallsPerS*1000) / 1000; r.Ratio != want {
			t.Fatalf("ratio %v, want calls_per_s / baseline_calls_per_s = %v", r.Ratio, want)
		}
		for _, field := range []string{`"baseline_calls_per_s"`, `"ratio"`, `"ceiling_calls_per_s"`, `"ceiling_ratio"`} {
			if !strings.Contains(out.String(), field) {
				t.Errorf("JSON line lacks %s: %s", field, out.String())
			}
		}
		t.Logf("%s", out.String())
	})
}
