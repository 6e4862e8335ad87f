package app

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

func init() {
	register("branch", "the database's branches: add --code C --name N [--tz Z] [--from C2] | list | set [--branch C] [--name N] [--tz Z] | overview  (all with --db DSN)", runBranch)
}

func runBranch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "add":
			return branchAdd(ctx, args[1:], stdout, stderr)
		case "list":
			return branchList(ctx, args[1:], stdout, stderr)
		case "set":
			return branchSet(ctx, args[1:], stdout, stderr)
		case "overview":
			return branchOverview(ctx, args[1:], stdout, stderr)
		}
	}
	return model.Errorf(model.EInvalidInput, "用法：jiaohao branch add|list|set|overview --db DSN … (usage: jiaohao branch add|list|set|overview)")
}

// branchAdd creates a branch, with the default services and windows or a
// copy of another branch's configuration.
func branchAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("branch add", stderr)
	dsn := dbFlag(fs)
	code := fs.String("code", "", "the new branch's code, e.g. BJ001 (letters, digits, - and _)")
	name := fs.String("name", "", "the new branch's name, as tickets and screens show it")
	zone := fs.String("tz", "Asia/Shanghai", "the branch's time zone (IANA name)")
	from := fs.String("from", "", "copy services, windows, waiting areas, settings and the logo from the branch of this code")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *code == "" {
		return errRequired("--code")
	}
	if _, err := model.NormalBranchCode(*code); err != nil {
		return err
	}
	if err := model.CheckBranch(*name, *zone); err != nil {
		return err
	}
	s, err := sqlstore.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer s.Close()
	b, err := s.AddBranch(ctx, model.BranchInfo{Code: *code, Name: *name, TimeZone: *zone}, *from)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, branchLine(b))
	return nil
}

// branchList prints one line per branch, its code first.
func branchList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s, all, err := everyBranch(ctx, "branch list", args, stderr)
	if err != nil {
		return err
	}
	defer s.Close()
	for _, b := range all {
		fmt.Fprintln(stdout, branchLine(b))
	}
	return nil
}

// everyBranch opens the database named by the command's --db and lists its
// branches, for the commands that speak of all of them.
func everyBranch(ctx context.Context, cmd string, args []string, stderr io.Writer) (*sqlstore.GormStore, []model.BranchInfo, error) {
	fs := newFlags(cmd, stderr)
	dsn := dbFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return nil, nil, err
	}
	s, err := sqlstore.Open(ctx, *dsn)
	if err != nil {
		return nil, nil, err
	}
	all, err := s.Branches(ctx)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, all, nil
}

func branchLine(b model.BranchInfo) string { return b.Code + "\t" + b.Name + "\t" + b.TimeZone }

// branchSet renames a branch or moves its zone; what is not given stays.
func branchSet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("branch set", stderr)
	dsn := dbFlag(fs)
	branch := branchFlag(fs)
	name := fs.String("name", "", "the branch's new name")
	zone := fs.String("tz", "", "the branch's new time zone (IANA name)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *name == "" && *zone == "" {
		return model.Errorf(model.EInvalidInput, "请给出 --name 或 --tz (give --name or --tz)")
	}
	s, err := sqlstore.OpenBranch(ctx, *dsn, *branch)
	if err != nil {
		return err
	}
	defer s.Close()
	all, err := s.Branches(ctx)
	if err != nil {
		return err
	}
	for _, b := range all {
		if b.ID != s.BranchID() {
			continue
		}
		if *name != "" {
			b.Name = *name
		}
		if *zone != "" {
			b.TimeZone = *zone
		}
		if err := s.SetBranch(ctx, b.Name, b.TimeZone); err != nil {
			return err
		}
		fmt.Fprintln(stdout, branchLine(model.BranchInfo{Code: b.Code, Name: b.Name, TimeZone: b.TimeZone}))
		return nil
	}
	return model.Errorf(model.ENotFound, "网点已不存在 (the branch is gone)")
}

// branchOverview prints every branch's line of head office's overview,
// its code first: who waits and for how long, whom the windows serve,
// open windows, live alerts and failing devices.
func branchOverview(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s, all, err := everyBranch(ctx, "branch overview", args, stderr)
	if err != nil {
		return err
	}
	defer s.Close()
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "code\tname\twaiting\tserving\topen windows\tlongest wait\talerts\tfaults")
	for _, b := range all {
		bs, err := s.Branch(ctx, b.Code)
		if err != nil {
			return err
		}
		o, err := bs.Overview(ctx)
		bs.Close()
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%s\t%d\t%d\n", o.Code, o.Name, o.Waiting, o.Serving, o.OpenWindows,
			o.LongestWait.Round(time.Second), o.Alerts, o.Faults)
	}
	return w.Flush()
}
