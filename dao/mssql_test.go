package dao_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/dao"
	"jiaohao/dao/daotest"
)

// Test 7a: every SQL Server script parses as T-SQL. sqlfluff is the parser;
// it is required when JIAOHAO_TEST_REQUIRE_TOOLS=1 (as in CI).
func TestMSSQLScriptsParse(t *testing.T) {
	bin, err := exec.LookPath("sqlfluff")
	if err != nil {
		if os.Getenv("JIAOHAO_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatal("sqlfluff is not installed but JIAOHAO_TEST_REQUIRE_TOOLS=1")
		}
		t.Skip("sqlfluff not installed: T-SQL scripts not parsed")
	}
	files, _ := filepath.Glob("sql/mssql/*.sql")
	if len(files) == 0 {
		t.Fatal("no SQL Server scripts found")
	}
	for _, f := range files {
		out, err := exec.Command(bin, "parse", "--dialect", "tsql", f).CombinedOutput()
		if err != nil || strings.Contains(string(out), "unparsable") {
			t.Fatalf("%s does not parse as T-SQL (%v):\n%s", f, err, out)
		}
	}
}

// Test 7b: the core suite against a real SQL Server. Every daotest.Each
// test above also runs a "sqlserver" subtest when the variable is set; this
// one says so plainly when it is not.
func TestMSSQLIntegration(t *testing.T) {
	if os.Getenv(daotest.EnvMSSQL) == "" {
		t.Skipf("%s not set: SQL Server integration not run (set it to sqlserver://user:pass@host:1433 to run the whole dao suite there)", daotest.EnvMSSQL)
	}
	s := daotest.Each
	s(t, func(t *testing.T, st *dao.GormStore) {
		if st.Engine() != "sqlserver" {
			t.Skip("covered by the other tests")
		}
		tk := take(t, st, "A", 0)
		got := ok(t)(st.CallNext(bg, 1, ""))
		if got.ID != tk.ID {
			t.Fatalf("usp_CallNext returned %d, want %d", got.ID, tk.ID)
		}
	})
}
