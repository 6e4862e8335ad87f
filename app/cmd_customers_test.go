package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"

	"jiaohao/dao/daotest"
)

// `jiaohao customers import` names each bad line of a GB18030 file and
// imports nothing; the file put right imports; add reads the ID number
// from stdin; list shows its last 4 digits only.
func TestCustomersCommand(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	prev := secretIn
	t.Cleanup(func() { secretIn = prev })
	cust := func(input string, args ...string) (int, string, string) {
		t.Helper()
		secretIn = strings.NewReader(input)
		var out, errb bytes.Buffer
		code := run(append([]string{"customers"}, append(args, "--db", dsn)...), &out, &errb)
		return code, out.String(), errb.String()
	}
	write := func(name, text string) string {
		gb, err := simplifiedchinese.GB18030.NewEncoder().String(text)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, []byte(gb), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.csv", "客户号,姓名,手机,等级\nK1,张三,13900000001,普通\nK2,李四,139,贵宾\n")
	if code, _, errs := cust("", "import", bad); code == 0 || !strings.Contains(errs, "line 3: phone: 手机号") {
		t.Fatalf("bad import: exit %d: %s", code, errs)
	}
	if code, out, _ := cust("", "list"); code != 0 || strings.Contains(out, "K1") {
		t.Fatalf("after a refused import: exit %d:\n%s", code, out)
	}
	good := write("good.csv", "客户号,姓名,手机,等级\nK1,张三,13900000001,普通\nK2,李四,13900000002,贵宾\n")
	if code, out, errs := cust("", "import", good); code != 0 || !strings.Contains(out, "2 added") {
		t.Fatalf("import: exit %d: %s %s", code, out, errs)
	}
	if code, _, errs := cust("11010519491231002X\n", "add", "--number", "K3", "--name", "王五", "--level", "私行"); code != 0 {
		t.Fatalf("add: exit %d: %s", code, errs)
	}
	code, out, _ := cust("", "list")
	if code != 0 || !strings.Contains(out, "李四") || !strings.Contains(out, "…002X") || strings.Contains(out, "11010519491231002X") {
		t.Fatalf("list: exit %d:\n%s", code, out)
	}
	// An ID number to look up comes on stdin, never on the command line.
	if code, out, errs := cust("", "list", "--q", "11010519491231002X"); code == 0 || strings.Contains(out, "王五") || !strings.Contains(errs, "--q -") {
		t.Fatalf("list by an ID number on the command line: exit %d:\n%s%s", code, out, errs)
	}
	if code, out, errs := cust("11010519491231002x\n", "list", "--q", "-"); code != 0 || !strings.Contains(out, "王五") || strings.Contains(out, "李四") {
		t.Fatalf("list by an ID number on stdin: exit %d:\n%s%s", code, out, errs)
	}
	if code, _, errs := cust("\n", "add", "--number", "K3", "--name", "赵六", "--level", "普通"); code == 0 || !strings.Contains(errs, "已存在") {
		t.Fatalf("duplicate: exit %d: %s", code, errs)
	}
}
