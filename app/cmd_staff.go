package app

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// `jiaohao staff` manages the clerks' accounts on the branch database, as
// the manager's 员工 page does. A password is read from the first line of
// standard input, never from a flag: flags show in the process list and
// the shell's history. Typed at a terminal it is asked for twice and not
// shown (secret.go).

func init() {
	register("staff", "clerks' accounts: add --number N --name NAME [--services A,B] | list | disable|enable --number N | reset --number N  (all with --db DSN; passwords on stdin)", runStaff)
}

func runStaff(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return model.Errorf(model.EInvalidInput, "用法：jiaohao staff add|list|disable|enable|reset --db DSN … (usage: jiaohao staff add|list|disable|enable|reset)")
	}
	var number, name, services *string
	fs := newFlags("staff "+args[0], stderr)
	dsn := dbFlag(fs)
	branch := branchFlag(fs)
	number = fs.String("number", "", "staff number (工号)")
	name = fs.String("name", "", "the clerk's name (add)")
	services = fs.String("services", "", "service codes the clerk may handle, comma separated (add; empty: any)")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	st, err := sqlstore.OpenBranch(ctx, *dsn, *branch)
	if err != nil {
		return err
	}
	defer st.Close()
	switch args[0] {
	case "add":
		return staffAdd(ctx, st, *number, *name, *services, stdout, stderr)
	case "list":
		return staffList(ctx, st, stdout)
	case "disable", "enable":
		s, err := st.SetStaffEnabled(ctx, *number, args[0] == "enable")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "staff %s %sd\n", s.Number, args[0])
		return nil
	case "reset":
		pass, err := readSecret(ctx, stderr, clerkPassword)
		if err != nil {
			return err
		}
		if err := st.ResetStaffPassword(ctx, *number, pass); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "staff %s: password reset\n", *number)
		return nil
	}
	return model.Errorf(model.EInvalidInput, "未知的 staff 子命令 %q (unknown staff subcommand)", args[0])
}

func staffAdd(ctx context.Context, st *sqlstore.GormStore, number, name, services string, stdout, stderr io.Writer) error {
	pass, err := readSecret(ctx, stderr, clerkPassword)
	if err != nil {
		return err
	}
	var codes []string
	for _, c := range strings.Split(services, ",") {
		if c = strings.TrimSpace(c); c != "" {
			codes = append(codes, c)
		}
	}
	s, err := st.AddStaff(ctx, model.Staff{Number: number, Name: name, Services: codes}, pass)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "staff %s (%s) added\n", s.Number, s.Name)
	return nil
}

func staffList(ctx context.Context, st *sqlstore.GormStore, stdout io.Writer) error {
	list, err := st.StaffList(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NUMBER\tNAME\tSTATE\tSERVICES")
	for _, s := range list {
		state, svc := "enabled", "any"
		if !s.Enabled {
			state = "disabled"
		}
		if s.LockedUntil != nil {
			state += ", locked"
		}
		if len(s.Services) > 0 {
			svc = strings.Join(s.Services, ",")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Number, s.Name, state, svc)
	}
	return tw.Flush()
}
