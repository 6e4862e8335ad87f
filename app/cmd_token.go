package app

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

func init() {
	register("token", "terminal tokens for peer server mode: add --role R [--window n] | list [--role R] | revoke --id N  (all with --db DSN [--branch CODE]; --role hq: head office's, of no branch)", runToken)
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

// tokenFlags are the flags every token subcommand shares: the database,
// the branch, and the role, which for head office's (hq) names no branch.
type tokenFlags struct {
	dsn, branch, role *string
}

// parseTokenFlags parses --db, --branch and --role plus extra flags.
func parseTokenFlags(name string, args []string, stderr io.Writer, roleHelp string, extra func(fs flagSet)) (tokenFlags, error) {
	fs := newFlags("token "+name, stderr)
	f := tokenFlags{dsn: dbFlag(fs), branch: branchFlag(fs), role: fs.String("role", "", roleHelp)}
	if extra != nil {
		extra(fs)
	}
	return f, parseFlags(fs, args)
}

// headOffice reports whether the flags name head office's tokens, which
// belong to no branch: --branch is refused with them.
func (f tokenFlags) headOffice() (bool, error) {
	spec, ok := model.Role(*f.role).Spec()
	if !ok || !spec.HeadOffice {
		return false, nil
	}
	if strings.TrimSpace(*f.branch) != "" {
		return true, model.Errorf(model.EInvalidInput, "总部令牌不属于任何网点，不用 --branch (a head-office token belongs to no branch: leave out --branch)")
	}
	return true, nil
}

// open checks --role (empty: any) and opens the store of the flags'
// branch, or the database's whole for head office's tokens (hq).
func (f tokenFlags) open(ctx context.Context) (st *sqlstore.GormStore, hq bool, err error) {
	if *f.role != "" && !model.Role(*f.role).Valid() {
		return nil, false, model.Errorf(model.EInvalidInput, "--role 须为 %s", model.RoleNames("、", " 或 "))
	}
	if hq, err = f.headOffice(); err != nil {
		return nil, hq, err
	}
	if hq {
		st, err = sqlstore.Open(ctx, *f.dsn)
	} else {
		st, err = sqlstore.OpenBranch(ctx, *f.dsn, *f.branch)
	}
	return st, hq, err
}

// tokenAdd registers a terminal and prints its token once, alone on one
// line, so scripts can capture it; only the hash is stored. Head office's
// token (--role hq) is added to no branch.
func tokenAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var name *string
	var window *int
	f, err := parseTokenFlags("add", args, stderr, model.RoleNames(", ", " or "), func(fs flagSet) {
		window = fs.Int("window", 0, "the window a caller acts for")
		name = fs.String("name", "", "a name to recognise the PC by (default role and window)")
	})
	if err != nil {
		return err
	}
	spec, ok := model.Role(*f.role).Spec()
	if !ok {
		return model.Errorf(model.EInvalidInput, "--role 须为 %s", model.RoleNames("、", " 或 "))
	}
	if spec.Window != (*window > 0) {
		return model.Errorf(model.EInvalidInput, "--window 只用于且必须用于 caller (give --window for callers only)")
	}
	st, hq, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	var terms model.Terminals = st
	if hq {
		terms = st.HeadOffice()
	}
	if *name == "" {
		*name = *f.role
		if *window > 0 {
			*name = fmt.Sprintf("%s-%d", *f.role, *window)
		}
	}
	token, hash, err := peer.NewToken()
	if err != nil {
		return fmt.Errorf("生成令牌失败：%w", err)
	}
	t, err := terms.AddTerminal(ctx, model.Terminal{Name: *name, Role: spec.Role, Window: *window, TokenHash: hash})
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, token)
	fmt.Fprintf(stderr, "jiaohao: terminal %d (%s) added; the token above is shown only this once\n", t.ID, t.Name)
	if spec.Page != "" {
		fmt.Fprintf(stderr, "jiaohao: sign in with it on the host's page %s (e.g. http://192.168.1.10:8520%s)\n", spec.Page, spec.Page)
	}
	if hq {
		fmt.Fprintln(stderr, "jiaohao: head office's PC connects with it to the host serving every branch (jiaohao serve --branch all)")
	}
	return nil
}

// tokenList lists the branch's terminals and then head office's, which
// belong to no branch; --role keeps one role's, and --role hq needs no
// branch.
func tokenList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseTokenFlags("list", args, stderr, "list only this role's terminals", nil)
	if err != nil {
		return err
	}
	st, hq, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	var ts []model.Terminal
	if !hq {
		if ts, err = st.Terminals(ctx); err != nil {
			return err
		}
	}
	office, err := st.HeadOffice().Terminals(ctx)
	if err != nil {
		return err
	}
	ts = append(ts, office...)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tROLE\tWINDOW\tCREATED\tLAST SEEN\tSTATE")
	for _, t := range ts {
		if *f.role != "" && t.Role != model.Role(*f.role) {
			continue
		}
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

// tokenRevoke revokes a terminal of the branch, or of head office: ids
// are unique across the database, and `token list` shows both.
func tokenRevoke(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var id *int64
	f, err := parseTokenFlags("revoke", args, stderr, "hq: revoke a head-office token, naming no branch", func(fs flagSet) {
		id = fs.Int64("id", 0, "terminal id, from token list")
	})
	if err != nil {
		return err
	}
	if *id <= 0 {
		return model.Errorf(model.EInvalidInput, "请用 --id 指定终端编号 (give --id, see jiaohao token list)")
	}
	st, hq, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if hq {
		err = st.HeadOffice().RevokeTerminal(ctx, *id)
	} else if err = st.RevokeTerminal(ctx, *id); model.IsCode(err, model.ENotFound) {
		err = st.HeadOffice().RevokeTerminal(ctx, *id)
	}
	if err != nil {
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
