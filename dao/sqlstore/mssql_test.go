package sqlstore_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
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
	s(t, func(t *testing.T, st *sqlstore.GormStore) {
		if st.Engine() != "sqlserver" {
			t.Skip("covered by the other tests")
		}
		tk := take(t, st, "A", 0)
		got := ok(t)(st.CallNext(bg, 1, ""))
		if got.ID != tk.ID {
			t.Fatalf("usp_CallNext returned %d, want %d", got.ID, tk.ID)
		}
		// branch.id is an IDENTITY column: the ids AddBranch gives need
		// IDENTITY_INSERT, turned off again after each, so the next branch
		// (on whichever pooled connection) is added too.
		for i, code := range []string{"SQ002", "SQ003"} {
			b, err := st.AddBranch(bg, model.BranchInfo{Code: code, Name: code, TimeZone: "Asia/Shanghai"}, "")
			okAny(t, err)
			if b.ID != int64(i+2) {
				t.Fatalf("branch %s got id %d, want %d", code, b.ID, i+2)
			}
			sib, err := st.Branch(bg, code)
			okAny(t, err)
			take(t, sib, "A", 0)
			sib.Close()
		}
	})
}

// The procedure carries the marker the migration looks for, and uses no
// syntax newer than SQL Server 2012.
func TestMSSQLProcedureIsVersionedAndPortable(t *testing.T) {
	b, err := os.ReadFile("sql/mssql/usp_CallNext.sql")
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	if !strings.Contains(src, "jiaohao:usp_CallNext:v3") || !strings.Contains(src, "ALTER PROCEDURE dbo.usp_CallNext") {
		t.Fatal("usp_CallNext.sql lost its version marker or its ALTER form")
	}
	var code strings.Builder // the statements, without comments
	for _, line := range strings.Split(src, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			code.WriteString(strings.ToUpper(line) + "\n")
		}
	}
	for _, newer := range []string{"CREATE OR ALTER", "STRING_SPLIT"} {
		if strings.Contains(code.String(), newer) {
			t.Fatalf("usp_CallNext uses %s, which older branch servers lack", newer)
		}
	}
}
