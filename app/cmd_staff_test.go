package app

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// `jiaohao staff` adds a clerk with the password read from standard
// input, lists, disables and resets; a duplicate number is refused with
// a sentence and adds nothing.
func TestStaffCommand(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	prev := secretIn
	t.Cleanup(func() { secretIn = prev })
	staff := func(input string, args ...string) (int, string, string) {
		t.Helper()
		secretIn = strings.NewReader(input)
		var out, errb bytes.Buffer
		code := run(append([]string{"staff"}, append(args, "--db", dsn)...), &out, &errb)
		return code, out.String(), errb.String()
	}
	if code, _, errs := staff("clerk-pass\n", "add", "--number", "1001", "--name", "李娜", "--services", "A,B"); code != 0 {
		t.Fatalf("add: exit %d: %s", code, errs)
	}
	if code, _, errs := staff("clerk-pass\n", "add", "--number", "1001", "--name", "王强"); code == 0 || !strings.Contains(errs, "已存在") {
		t.Fatalf("duplicate: exit %d: %s", code, errs)
	}
	if code, out, _ := staff("", "list"); code != 0 || !strings.Contains(out, "1001") || !strings.Contains(out, "A,B") || strings.Contains(out, "王强") {
		t.Fatalf("list: exit %d:\n%s", code, out)
	}
	if code, _, errs := staff("", "disable", "--number", "1001"); code != 0 {
		t.Fatalf("disable: %s", errs)
	}
	if code, _, errs := staff("new-pass-1\n", "reset", "--number", "1001"); code != 0 {
		t.Fatalf("reset: %s", errs)
	}
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.SignIn(context.Background(), 1, "1001", "new-pass-1"); model.ErrorCode(err) != model.EStaffDisabled {
		t.Fatalf("disabled clerk signing in: %v", err)
	}
	st.SetStaffEnabled(context.Background(), "1001", true)
	if _, err := st.SignIn(context.Background(), 1, "1001", "new-pass-1"); err != nil {
		t.Fatalf("the reset password: %v", err)
	}
}
