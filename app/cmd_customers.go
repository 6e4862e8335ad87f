package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// `jiaohao customers` keeps the customer register on the branch database,
// as the manager's 客户 page does. An ID or card number is read from the
// first line of standard input, never from a flag: flags show in the
// process list and the shell's history.

func init() {
	register("customers", "customer register: import FILE.csv | list [--q QUERY|-] | add --number N --name NAME --level LEVEL [--phone P] [--note T] [--card] | levels  (all with --db DSN; an ID or card number for add on stdin)", runCustomers)
}

func runCustomers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return model.Errorf(model.EInvalidInput, "用法：jiaohao customers import FILE|list|add|levels --db DSN … (usage: jiaohao customers import FILE|list|add|levels)")
	}
	cmd, rest, file := args[0], args[1:], ""
	if cmd == "import" {
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			return model.Errorf(model.EInvalidInput, "用法：jiaohao customers import FILE.csv --db DSN (usage: jiaohao customers import FILE.csv)")
		}
		file, rest = rest[0], rest[1:]
	}
	fs := newFlags("customers "+cmd, stderr)
	dsn := dbFlag(fs)
	query := fs.String("q", "", "list: a customer number, phone or part of a name; - reads an ID or card number from stdin")
	number := fs.String("number", "", "add: customer number (客户号)")
	name := fs.String("name", "", "add: the customer's name")
	phone := fs.String("phone", "", "add: mobile number")
	level := fs.String("level", "", "add: level name (普通, 贵宾 …)")
	note := fs.String("note", "", "add: a note for the clerks")
	card := fs.Bool("card", false, "add: the number on stdin is a card number, not an ID number")
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	var data []byte
	if cmd == "import" {
		f, err := os.Open(file)
		if err != nil {
			return model.Errorf(model.EInvalidInput, "无法读取文件 %s (cannot read %s)", file, file)
		}
		data, err = model.ReadCustomerFile(f)
		f.Close()
		if err != nil {
			return err
		}
	}
	st, err := sqlstore.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	switch cmd {
	case "import":
		return customersImport(ctx, st, data, stdout, stderr)
	case "list":
		q, err := listQuery(ctx, *query, stderr)
		if err != nil {
			return err
		}
		return customersList(ctx, st, q, stdout)
	case "levels":
		return customerLevels(ctx, st, stdout)
	case "add":
		in := model.CustomerInput{Customer: model.Customer{Number: *number, Name: *name, Phone: *phone, Level: *level, Note: *note}}
		which, key := customerID, &in.IDNumber
		if *card {
			which, key = customerCard, &in.CardNumber
		}
		var err error
		if *key, err = readSecret(ctx, stderr, which); err != nil { // stdin, as a password is
			return err
		}
		c, err := st.SaveCustomer(ctx, in)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "customer %s (%s, %s) added\n", c.Number, c.Name, c.Level)
		return nil
	}
	return model.Errorf(model.EInvalidInput, "未知的 customers 子命令 %q (unknown customers subcommand)", cmd)
}

// listQuery is list's query: an ID or card number only from stdin (--q -),
// never the flag, which the process list and the shell's history keep.
func listQuery(ctx context.Context, q string, prompt io.Writer) (string, error) {
	if q == "-" {
		return readSecret(ctx, prompt, customerLookup)
	}
	if kind, _ := model.ClassifyKey(model.NormalizeKey(q)); kind == model.KeyIDNumber || kind == model.KeyCard {
		return "", model.Errorf(model.EInvalidInput, "证件号或卡号请用 --q - 从标准输入给出，不要写在命令行上 (give an ID or card number on stdin with --q -, not on the command line)")
	}
	return q, nil
}

// customersImport writes every row of the file or, on any bad row, none
// and names each bad line on stderr.
func customersImport(ctx context.Context, reg model.CustomerRegister, data []byte, stdout, stderr io.Writer) error {
	rows, err := model.ParseCustomerCSV(data)
	if err != nil {
		return err
	}
	res, err := reg.ImportCustomers(ctx, rows)
	if err != nil {
		return err
	}
	if len(res.Bad) > 0 {
		for _, b := range res.Bad {
			fmt.Fprintf(stderr, "line %d: %s: %s\n", b.Line, b.Field, b.Message)
		}
		return model.Errorf(model.EInvalidInput, "%d 处错误，未导入任何客户 (%d problems; nothing imported)", len(res.Bad), len(res.Bad))
	}
	fmt.Fprintf(stdout, "imported %d rows: %d added, %d updated\n", len(rows), res.Added, res.Updated)
	return nil
}

func customersList(ctx context.Context, reg model.CustomerRegister, q string, stdout io.Writer) error {
	list, err := reg.Customers(ctx, q, 500)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NUMBER\tNAME\tLEVEL\tPHONE\tID\tCARD\tSTATE")
	for _, c := range list {
		state := "enabled"
		if !c.Enabled {
			state = "disabled"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Number, c.Name, c.Level, c.Phone, last4(c.IDLast4), last4(c.CardLast4), state)
	}
	return tw.Flush()
}

func last4(s string) string {
	if s == "" {
		return "-"
	}
	return "…" + s
}

func customerLevels(ctx context.Context, reg model.CustomerRegister, stdout io.Writer) error {
	list, err := reg.CustomerLevels(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LEVEL\tPRIORITY\tSERVICE")
	for _, l := range list {
		prio, svc := fmt.Sprint(l.Priority), l.Service
		if l.Priority == 0 {
			prio = "the service's"
		}
		if svc == "" {
			svc = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", l.Name, prio, svc)
	}
	return tw.Flush()
}
