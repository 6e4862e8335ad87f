// Package app is the command line and the wiring: it owns this PC's setup
// (Config, kept in the Fyne preferences and carried in settings files),
// parses flags over it, opens the Store (database or peer server) and
// hands it to the role's screen (roles.go), the servers and the tools.
// Each subcommand lives in its own cmd_*.go file and registers itself here.
package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"sync"
	"syscall"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// command is one subcommand: run gets the arguments after its name.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

// register adds a subcommand; called from init in each cmd_*.go file.
func register(name, summary string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	commands[name] = command{summary: summary, run: run}
}

// Main runs jiaohao with the given arguments and returns the exit code.
func Main(args []string) int {
	return run(args, os.Stdout, os.Stderr)
}

func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := onSignal(stderr)
	defer stop()
	var err error
	switch {
	case len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help"):
		usage(stdout)
		return 0
	case len(args) > 0 && (args[0] == "--version" || args[0] == "-version"):
		args = append([]string{"version"}, args[1:]...)
		fallthrough
	case len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-':
		cmd, ok := commands[args[0]]
		if !ok {
			fmt.Fprintf(stderr, "jiaohao: unknown command %q; run \"jiaohao help\" for the list\n", args[0])
			return 2
		}
		err = cmd.run(ctx, args[1:], stdout, stderr)
	default:
		err = runGUI(ctx, args, stdout, stderr) // no subcommand: the desktop program
	}
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	// One plain sentence; never a stack trace.
	fmt.Fprintf(stderr, "jiaohao: %s\n", userMessage(err))
	if c := model.ErrorCode(err); c == model.EInvalidInput || c == model.ELowContrast { // bad input, as the peer API's 400
		return 2
	}
	return 1
}

// stopGrace is how long the process may take to stop after SIGINT or
// SIGTERM before it exits anyway: a hung database or a stuck window must
// not keep `systemctl stop` or Ctrl+C waiting.
const stopGrace = 4 * time.Second

// onSignal returns a context that ends on SIGINT or SIGTERM. After the
// first signal a second one ends the process at once, and if it has not
// stopped within stopGrace it exits on its own.
func onSignal(stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sigs:
		case <-ctx.Done():
			return
		}
		signal.Stop(sigs) // the default action again: a second signal kills
		cancel()
		time.AfterFunc(stopGrace, func() {
			fmt.Fprintln(stderr, "jiaohao: stopping took too long; exiting now")
			os.Exit(1)
		})
	}()
	return ctx, func() { signal.Stop(sigs); cancel() }
}

// userMessage is the sentence shown for err: the domain message when there
// is one, otherwise the wrapped error text (which never carries secrets:
// connection strings are redacted where errors are made).
func userMessage(err error) string {
	var me *model.Error
	if errors.As(err, &me) {
		return me.Message
	}
	return err.Error()
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: jiaohao [flags]            run the desktop program")
	fmt.Fprintln(w, "       jiaohao COMMAND [flags]    run a tool:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
}

// helpOut remembers where each FlagSet prints its help.
var helpOut sync.Map // *flag.FlagSet -> io.Writer

// newFlags makes a FlagSet that reports errors instead of exiting. Parse
// errors stay silent here and become one sentence from run; -h prints the
// flags.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("jiaohao "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	helpOut.Store(fs, stderr)
	return fs
}

// parseFlags parses and turns a flag error into an invalid-input error.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			if w, ok := helpOut.Load(fs); ok {
				fs.SetOutput(w.(io.Writer))
				fmt.Fprintf(w.(io.Writer), "usage of %s:\n", fs.Name())
				fs.PrintDefaults()
			}
			return err
		}
		return model.Errorf(model.EInvalidInput, "%s", err.Error())
	}
	if fs.NArg() > 0 {
		return model.Errorf(model.EInvalidInput, "unexpected argument %q", fs.Arg(0))
	}
	return nil
}

func errRequired(flagName string) error {
	return model.Errorf(model.EInvalidInput, "%s is required", flagName)
}

// dbFlag is the --db flag of the tools, defaulting to this PC's embedded
// database.
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", sqlstore.DefaultDSN(), "database: sqlite:PATH, postgres://…, mysql://…, sqlserver://…")
}

// branchFlag is the --branch flag: the code of the branch to work on. The
// default is the database's only branch, so a site of one never gives it.
func branchFlag(fs *flag.FlagSet) *string {
	return fs.String("branch", "", "branch code, e.g. BJ001 (default: the database's only branch; `jiaohao branch list` shows them)")
}
