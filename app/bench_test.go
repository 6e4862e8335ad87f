package app

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
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

// bench --branches loads three branches at once on every engine, through
// one pool, and prints the per-branch distribution; the audit finds every
// ticket called once. No threshold: the figures belong to the README.
func TestBenchBranchesEveryEngine(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		for _, extra := range [][]string{{"--rate", "4"}, {"--saturate", "--tickets", "20"}} {
			args := append([]string{"bench", "--db", dsn, "--branches", "3", "--seconds", "2", "--windows", "4"}, extra...)
			var out, errOut bytes.Buffer
			if code := run(args, &out, &errOut); code != 0 {
				t.Fatalf("%v: exit %d: %s", extra, code, errOut.String())
			}
			var r branchesResult
			if err := json.Unmarshal(out.Bytes(), &r); err != nil || strings.Count(out.String(), "\n") != 1 {
				t.Fatalf("not one JSON line: %q", out.String())
			}
			if r.Branches != 3 || r.Windows != 4 || r.Pool < 1 || r.Calls != r.Takes || r.Calls == 0 || r.Duplicates != 0 || r.Skipped != 0 {
				t.Fatalf("%v: counts %+v", extra, r)
			}
			if r.CallsPerS <= 0 || r.BranchP99ms.Max < r.BranchP99ms.Median || r.BranchP50ms.Median > r.BranchP99ms.Max || r.P99ms < r.P50ms {
				t.Fatalf("%v: figures %+v", extra, r)
			}
			if r.Saturate && r.Takes != 3*20 {
				t.Fatalf("saturated: %d takes, want a backlog of 20 for each of 3 branches", r.Takes)
			}
			t.Logf("%s", out.String())
		}
		// A second run finds the bench branches and uses them again.
		var out, errOut bytes.Buffer
		if code := run([]string{"bench", "--db", dsn, "--branches", "3", "--seconds", "1", "--windows", "2"}, &out, &errOut); code != 0 {
			t.Fatalf("second run: exit %d: %s", code, errOut.String())
		}
		st, err := sqlstore.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		all, err := st.Branches(context.Background())
		if err != nil || len(all) != 4 {
			t.Fatalf("branches after two runs: %v %v, want B001 and three bench branches", all, err)
		}
	})
}

func TestBenchBranchesRejectsBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--db", "sqlite:/tmp/x.db", "--branches", "1000"},
		{"bench", "--db", "sqlite:/tmp/x.db", "--branches", "2", "--rate", "0"},
		{"bench", "--db", "sqlite:/tmp/x.db", "--branches", "2", "--seconds", "0.5"},
		{"bench", "--db", "sqlite:/tmp/x.db", "--branches", "2", "--compare"},
		{"bench", "--db", "sqlite:/tmp/x.db", "--branches", "2", "--branch", "B001"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "jiaohao: ") {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
	}
}
