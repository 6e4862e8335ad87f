package app

import (
	"bytes"
	"context"
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
