package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"jiaohao/model"
)

func init() {
	register("settings", "copy this PC's setup to others: export|import --file F [--window N] [--token T] [--printer A] [--led A]; the branch's look: logo --db DSN --file F|--clear, colors --db DSN --value V", runSettings)
}

// maxSettingsFile bounds what import reads: a settings file is a few
// hundred bytes, anything near this is not one.
const maxSettingsFile = 64 << 10

func runSettings(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "logo" || args[0] == "colors") {
		return settingsLook(ctx, args[0], args[1:], stdout, stderr)
	}
	if len(args) == 0 || (args[0] != "export" && args[0] != "import") {
		return model.Errorf(model.EInvalidInput, "用法 (usage): jiaohao settings export|import --file F | logo --db DSN --file F | colors --db DSN --value V")
	}
	verb := args[0]
	fs := newFlags("settings "+verb, stderr)
	file := fs.String("file", "", "the settings file to write (export) or read (import)")
	var own Config // this PC's own values, replacing the file's
	if verb == "import" {
		fs.IntVar(&own.Window, "window", 0, "this PC's window number, replacing the file's (callers)")
		fs.StringVar(&own.Token, "token", "", "this PC's terminal token, replacing the file's (peer mode)")
		fs.StringVar(&own.Printer, "printer", "", "this kiosk's own printer, replacing the file's (\"\" for the branch's)")
		fs.StringVar(&own.LED, "led", "", "this PC's LED bar, replacing the file's (\"\" for none)")
	}
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if *file == "" {
		return errRequired("--file")
	}
	prefs, err := openFilePrefs(appID)
	if err != nil {
		return err
	}
	if verb == "export" {
		return exportSettings(prefs, *file, stdout)
	}
	return importSettings(prefs, *file, func(c *Config) {
		if own.Window > 0 {
			c.Window = own.Window
		}
		if own.Token != "" {
			c.Token = own.Token
		}
		// Devices are this PC's hardware: an empty value given on purpose
		// clears the file's.
		if given["printer"] {
			c.Printer = own.Printer
		}
		if given["led"] {
			c.LED = own.LED
		}
	}, stdout)
}

func exportSettings(prefs *filePrefs, file string, stdout io.Writer) error {
	data, err := ExportPCSettings(prefs)
	if err != nil {
		return err
	}
	// 0600: the file may carry a token or a database password.
	if err := writeFileAtomic(file, data, 0o600); err != nil {
		return fmt.Errorf("写入 %s 失败 (cannot write the settings file): %w", file, err)
	}
	c, _ := LoadConfig(prefs)
	fmt.Fprintf(stdout, "exported this PC's settings (role %s, mode %s) to %s; the file holds its token or connection string, keep it like a key\n",
		c.Role, c.Mode, file)
	return nil
}

func importSettings(prefs *filePrefs, file string, adjust func(*Config), stdout io.Writer) error {
	data, err := readSmallFile(file)
	if err != nil {
		return err
	}
	c, err := ImportPCSettings(prefs, data, adjust)
	if err != nil {
		return err
	}
	if err := prefs.save(); err != nil {
		return fmt.Errorf("保存本机设置失败 (cannot save this PC's preferences): %w", err)
	}
	where := ""
	if roleSpec(c.Role).Window {
		where = fmt.Sprintf(", window %d", c.Window)
	}
	for _, d := range [][2]string{{"printer", c.Printer}, {"LED bar", c.LED}} {
		if d[1] != "" {
			where += fmt.Sprintf(", %s %s", d[0], d[1])
		}
	}
	fmt.Fprintf(stdout, "imported %s: role %s%s, mode %s; start jiaohao to use them\n", file, c.Role, where, c.Mode)
	return nil
}

func readSmallFile(file string) ([]byte, error) {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, model.Errorf(model.EInvalidInput, "找不到设置文件 %s，%s (no such file; %s)", file, unchanged, unchangedEN)
	}
	if err != nil {
		return nil, fmt.Errorf("读取 %s 失败，%s (cannot read the settings file; %s): %w", file, unchanged, unchangedEN, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSettingsFile+1))
	if err != nil {
		return nil, fmt.Errorf("读取 %s 失败，%s (cannot read the settings file; %s): %w", file, unchanged, unchangedEN, err)
	}
	if len(data) > maxSettingsFile {
		return nil, damaged("far too large to be a settings file")
	}
	return data, nil
}
