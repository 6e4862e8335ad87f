package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// The branch's look from the command line, on the database every PC
// follows: `jiaohao settings logo --db DSN --file F` (or --clear) and
// `jiaohao settings colors --db DSN --value V`. The store checks both;
// a refusal is its sentence and changes nothing.

// settingsLook runs the logo and colors verbs of `jiaohao settings`.
func settingsLook(ctx context.Context, verb string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("settings "+verb, stderr)
	dsn := dbFlag(fs)
	branch := branchFlag(fs)
	file := fs.String("file", "", "the PNG or JPEG logo, at most 256 KB (logo)")
	remove := fs.Bool("clear", false, "remove the logo (logo)")
	value := fs.String("value", "", `the branch colours, e.g. "background=#0a1628&number=#ffd54f&highlight=#b71c1c&text=#ffffff"; "" for each screen's own (colors)`)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	// Each verb takes its own flags only (parseFlags refuses bare words): a forgotten
	// --value would otherwise clear the branch's colours.
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if verb == "colors" && (!given["value"] || given["file"] || given["clear"]) {
		return model.Errorf(model.EInvalidInput, `请用 --value 指定颜色，--value "" 恢复各屏默认，设置未更改 (give the colours with --value V, or --value "" for each screen's own; nothing changed)`)
	}
	var data []byte
	if verb == "logo" {
		if (*file == "") == !*remove || given["value"] {
			return model.Errorf(model.EInvalidInput, "请用 --file 指定标志图片，或用 --clear 移除标志 (give --file F or --clear)")
		}
		if *file != "" {
			var err error
			if data, err = readLogo(*file); err != nil {
				return err
			}
			if _, err := model.CheckLogo(data); err != nil {
				return err // before opening the database: nothing to change
			}
		}
	} else if err := model.ValidateSetting("colors", *value); err != nil {
		return err
	}
	st, err := sqlstore.OpenBranch(ctx, *dsn, *branch)
	if err != nil {
		return err
	}
	defer st.Close()
	if verb == "colors" {
		if err := st.SetSetting(ctx, "colors", *value); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "branch colours set to %q; every screen follows\n", *value)
		return nil
	}
	if err := st.SetLogo(ctx, data); err != nil {
		return err
	}
	if data == nil {
		fmt.Fprintln(stdout, "branch logo removed; every screen follows")
	} else {
		fmt.Fprintf(stdout, "branch logo set from %s (%d KB); every screen follows\n", *file, (len(data)+1023)>>10)
	}
	return nil
}

// readLogo reads an image file a little past the bound, so an oversized
// one gets the store's sentence.
func readLogo(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, model.Errorf(model.EInvalidInput, "无法打开标志图片 %s，设置未更改 (cannot open the logo file; nothing changed)", file)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, model.MaxLogoBytes+1))
	if err != nil {
		return nil, fmt.Errorf("读取 %s 失败 (cannot read the logo file): %w", file, err)
	}
	return data, nil
}
