package app

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// `jiaohao token add --role handheld` issues a staff handheld's token: a
// terminal of that role, bound to no window, whose hash is what is stored,
// and the command says where to sign in with it; a window is refused.
func TestTokenAddHandheld(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	var out, errb bytes.Buffer
	if code := run([]string{"token", "add", "--db", dsn, "--role", "handheld", "--name", "floor-1"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	token := strings.TrimSpace(out.String())
	if !strings.HasPrefix(token, "jh_") || !strings.Contains(errb.String(), "/staff") {
		t.Fatalf("token %q, stderr %q", token, errb.String())
	}
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	term, err := st.TerminalByTokenHash(context.Background(), peer.HashToken(token))
	if err != nil || term.Role != model.RoleHandheld || term.Window != 0 || term.Name != "floor-1" {
		t.Fatalf("stored terminal %+v %v", term, err)
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"token", "add", "--db", dsn, "--role", "handheld", "--window", "2"}, &out, &errb); code == 0 || out.Len() != 0 {
		t.Fatalf("a handheld bound to a window: exit %d, %q", code, out.String())
	}
}

// `jiaohao token add --role hq` issues head office's token on a database
// of several branches without naming one: it belongs to no branch, so no
// branch finds it, `token list` shows it after the branch's own (and
// alone with --role hq, no branch needed), and `token revoke` ends it.
// --branch with it is one sentence.
func TestTokenAddHeadOffice(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.AddBranch(ctx, model.BranchInfo{Code: "BJ001", Name: "北京分行", TimeZone: "Asia/Shanghai"}, ""); err != nil {
		t.Fatal(err)
	}
	cmd := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append(args, "--db", dsn), &out, &errb)
		return code, out.String(), errb.String()
	}
	code, out, errs := cmd("token", "add", "--role", "hq", "--name", "总部")
	token := strings.TrimSpace(out)
	if code != 0 || !strings.HasPrefix(token, "jh_") || !strings.Contains(errs, "serve --branch all") {
		t.Fatalf("token add --role hq: exit %d, %q, %q", code, out, errs)
	}
	hash := peer.HashToken(token)
	term, err := st.HeadOffice().TerminalByTokenHash(ctx, hash)
	if err != nil || term.Role != model.RoleHQ || term.Name != "总部" {
		t.Fatalf("head office's terminal %+v %v", term, err)
	}
	if _, err := st.TokenBranch(ctx, hash); model.ErrorCode(err) != model.EUnauthorized {
		t.Errorf("the hq token routes to a branch: %v", err)
	}
	if code, _, errs := cmd("token", "add", "--role", "hq", "--branch", "BJ001"); code == 0 || !strings.Contains(errs, "--branch") {
		t.Errorf("hq with --branch: exit %d, %q", code, errs)
	}
	code, out, errs = cmd("token", "list", "--role", "hq")
	if code != 0 || !strings.Contains(out, "总部") || !strings.Contains(out, "hq") {
		t.Fatalf("token list --role hq: exit %d, %q %q", code, out, errs)
	}
	if _, err := st.AddTerminal(ctx, model.Terminal{Name: "kiosk-bj", Role: model.RoleKiosk, TokenHash: strings.Repeat("d4", 32)}); err != nil {
		t.Fatal(err)
	}
	code, out, _ = cmd("token", "list", "--branch", "B001")
	if code != 0 || !strings.Contains(out, "kiosk-bj") || !strings.Contains(out, "总部") {
		t.Fatalf("token list of B001: exit %d, %q", code, out)
	}
	id := fmt.Sprint(term.ID)
	if code, out, errs = cmd("token", "revoke", "--branch", "BJ001", "--id", id); code != 0 || !strings.Contains(out, "revoked") {
		t.Fatalf("token revoke of the hq token: exit %d, %q %q", code, out, errs)
	}
	if _, err := st.HeadOffice().TerminalByTokenHash(ctx, hash); model.ErrorCode(err) != model.EUnauthorized {
		t.Errorf("the revoked hq token: %v", err)
	}
}
