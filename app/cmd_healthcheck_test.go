package app

import (
	"context"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
)

// healthcheck on demand writes the day's four files into --dir and
// records the check; a bad argument is one sentence, exit 2, no file.
func TestHealthcheckCommand(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	dir := t.TempDir()
	for _, args := range [][]string{{"--date", "2026-3-2"}, {"--lang", "fr"}, {"extra"}} {
		code, _, errs := cli(append([]string{"healthcheck", "--db", dsn, "--dir", dir}, args...)...)
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
	if got := files(t, dir); len(got) != 0 {
		t.Fatalf("bad input left %v", got)
	}
	if code, out, errs := cli("seed-day", "--db", dsn, "--date", "2026-03-02", "--tickets", "30"); code != 0 {
		t.Fatalf("seed-day: %d %s %s", code, out, errs)
	}
	code, out, errs := cli("healthcheck", "--db", dsn, "--date", "2026-03-02", "--dir", dir, "--lang", "en")
	if code != 0 || !strings.Contains(out, "2026-03-02 健康检查：取号 30") {
		t.Fatalf("healthcheck: %d %q %q", code, out, errs)
	}
	if got := files(t, dir); len(got) != 4 {
		t.Fatalf("files %v", got)
	}
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	last, err := st.LastHealthCheck(context.Background())
	if err != nil || last.Date != "2026-03-02" || last.Taken != 30 || last.Dir != dir {
		t.Fatalf("recorded %+v (%v)", last, err)
	}
}
