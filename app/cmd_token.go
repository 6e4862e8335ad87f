package app

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

func init() {
	register("token", "terminal tokens for peer server mode: add --role R [--window n] | list | revoke --id N  (all with --db DSN)", runToken)
}

func runToken(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return model.Errorf(model.EInvalidInput, "用法：jiaohao token add|list|revoke --db DSN … (usage: jiaohao token add|list|revoke)")
	}
	switch args[0] {
	case "add":
		return tokenAdd(ctx, args[1:], stdout, stderr)
	case "list":
		return tokenList(ctx, args[1:], stdout, stderr)
	case "revoke":
		return tokenRevoke(ctx, args[1:], stdout, stderr)
	}
	return model.Errorf(model.EInvalidInput, "未知的 token 子命令 %q (unknown token subcommand)", args[0])
}

// openTerminals parses --db plus extra flags and opens the store.
func openTerminals(ctx context.Context, name string, args []string, stderr io.Writer, extra func(fs flagSet)) (*sqlstore.GormStore, error) {
	fs := newFlags("token "+name, stderr)
	dsn := dbFlag(fs)
	branch := branchFlag(fs)
	if extra != nil {
		extra(fs)
	}
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	return sqlstore.OpenBranch(ctx, *dsn, *branch)
}

// tokenAdd registers a terminal and prints its token once, alone on one
// line, so scripts can capture it; only the hash is stored.
func tokenAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var role, name *string
	var window *int
	st, err := openTerminals(ctx, "add", args, stderr, func(fs flagSet) {
		role = fs.String("role", "", model.RoleNames(", ", " or "))
		window = fs.Int("window", 0, "the window a caller acts for")
		name = fs.String("name", "", "a name to recognise the PC by (default role and window)")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	spec, ok := model.Role(*role).Spec()
	if !ok {
		return model.Errorf(model.EInvalidInput, "--role 须为 %s", model.RoleNames("、", " 或 "))
	}
	if spec.Window != (*window > 0) {
		return model.Errorf(model.EInvalidInput, "--window 只用于且必须用于 caller (give --window for callers only)")
	}
	if *name == "" {
		*name = *role
		if *window > 0 {
			*name = fmt.Sprintf("%s-%d", *role, *window)
		}
	}
	token, hash, err := peer.NewToken()
	if err != nil {
		return fmt.Errorf("生成令牌失败：%w", err)
	}
	t, err := st.AddTerminal(ctx, model.Terminal{Name: *name, Role: spec.Role, Window: *window, TokenHash: hash})
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, token)
	fmt.Fprintf(stderr, "jiaohao: terminal %d (%s) added; the token above is shown only this once\n", t.ID, t.Name)
	if spec.Page != "" {
		fmt.Fprintf(stderr, "jiaohao: sign in with it on the host's page %s (e.g. http://192.168.1.10:8520%s)\n", spec.Page, spec.Page)
	}
	return nil
}

func tokenList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	st, err := openTerminals(ctx, "list", args, stderr, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	ts, err := st.Terminals(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tROLE\tWINDOW\tCREATED\tLAST SEEN\tSTATE")
	for _, t := range ts {
		seen, state, win := "-", "active", "-"
		if t.LastSeen != nil {
			seen = t.LastSeen.Local().Format(time.DateTime)
		}
		if t.Revoked {
			state = "revoked"
		}
		if t.Window > 0 {
			win = fmt.Sprint(t.Window)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Name, t.Role, win, t.CreatedAt.Local().Format(time.DateTime), seen, state)
	}
	return tw.Flush()
}

func tokenRevoke(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var id *int64
	st, err := openTerminals(ctx, "revoke", args, stderr, func(fs flagSet) {
		id = fs.Int64("id", 0, "terminal id, from token list")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if *id <= 0 {
		return model.Errorf(model.EInvalidInput, "请用 --id 指定终端编号 (give --id, see jiaohao token list)")
	}
	if err := st.RevokeTerminal(ctx, *id); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "terminal %d revoked\n", *id)
	return nil
}

// flagSet is the part of flag.FlagSet the token subcommands use.
type flagSet interface {
	String(name, value, usage string) *string
	Int(name string, value int, usage string) *int
	Int64(name string, value int64, usage string) *int64
}
