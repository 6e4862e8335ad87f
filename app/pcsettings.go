package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"

	"jiaohao/model"
)

// The per-PC settings file: what the setup window saves on one PC (role,
// how to reach the queue, window, language), carried to the next PC as a
// small versioned JSON file so a technician sets up ten window PCs the same
// way.
const (
	pcSettingsFormat = "jiaohao-pc-settings"
	// PCSettingsVersion is the format written; bump it when the meaning of a
	// field changes, so an old program never misreads a new file.
	PCSettingsVersion = 1
)

// pcSettingsFile is version 1 of the file. Settings is the PC's Config,
// the setup window's values, so the file and the GUI cannot drift apart;
// the setup window exports and imports the same file (prefsSetup).
type pcSettingsFile struct {
	Format   string `json:"format"`
	Version  int    `json:"version"`
	Settings Config `json:"settings"`
}

// Every sentence about a rejected file says that nothing was changed.
const (
	unchanged   = "本机设置未改动"
	unchangedEN = "nothing was changed"
)

// EncodePCSettings writes c as a settings file, after checking it.
func EncodePCSettings(c Config) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(pcSettingsFile{Format: pcSettingsFormat, Version: PCSettingsVersion, Settings: c}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode settings: %w", err)
	}
	return append(b, '\n'), nil
}

// DecodePCSettings reads a settings file. Anything but a complete, valid
// file of this version is an invalid-input error of one sentence.
func DecodePCSettings(data []byte) (Config, error) {
	// The header first: a file of another version may not even have the
	// shape of this one, and must be reported as such, not as damaged.
	var head struct {
		Format   string          `json:"format"`
		Version  *int            `json:"version"`
		Settings json.RawMessage `json:"settings"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Config{}, damaged(jsonProblem(err))
	}
	if head.Format != pcSettingsFormat {
		return Config{}, model.Errorf(model.EInvalidInput,
			"这不是叫号的设置文件，%s (not a jiaohao settings file; %s)", unchanged, unchangedEN)
	}
	switch {
	case head.Version == nil:
		return Config{}, damaged("no version")
	case *head.Version < PCSettingsVersion:
		return Config{}, model.Errorf(model.EInvalidInput,
			"设置文件来自旧版本 (格式 %d)，%s；请用当前版本重新导出 (the file is from an older version, format %d; %s: export it again with this version)",
			*head.Version, unchanged, *head.Version, unchangedEN)
	case *head.Version > PCSettingsVersion:
		return Config{}, model.Errorf(model.EInvalidInput,
			"设置文件来自更新的版本 (格式 %d)，%s；请先升级本机的叫号程序 (the file is from a newer version, format %d; %s: update jiaohao on this PC first)",
			*head.Version, unchanged, *head.Version, unchangedEN)
	case len(head.Settings) == 0 || string(head.Settings) == "null":
		return Config{}, damaged("no settings")
	}
	var c Config
	dec := json.NewDecoder(bytes.NewReader(head.Settings))
	dec.DisallowUnknownFields() // a mistyped key must not be dropped silently
	if err := dec.Decode(&c); err != nil {
		return Config{}, damaged(jsonProblem(err))
	}
	if err := c.Validate(); err != nil {
		return Config{}, model.Errorf(model.EInvalidInput,
			"设置文件的内容无效：%s，%s (the settings in the file are not valid; %s)", model.ErrorMessage(err), unchanged, unchangedEN)
	}
	return c, nil
}

func damaged(why string) error {
	return model.Errorf(model.EInvalidInput,
		"设置文件已损坏或不完整，%s (the settings file is damaged: %s; %s)", unchanged, why, unchangedEN)
}

// jsonProblem says where a JSON error is without quoting the file, which
// may hold a token.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("not valid JSON at byte %d", syn.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s has the wrong type", typ.Field)
	}
	return err.Error()
}

// ExportPCSettings is the settings file of the PC whose preferences are p.
func ExportPCSettings(p fyne.Preferences) ([]byte, error) {
	c, ok := LoadConfig(p)
	if !ok {
		return nil, model.Errorf(model.EInvalidInput,
			"这台电脑还没有保存过设置，请先在设置窗口保存 (this PC has no saved settings yet)")
	}
	return EncodePCSettings(c)
}

// ImportPCSettings saves the settings of a file into p, after adjust (may
// be nil) has made the per-PC changes such as the window number. A file
// that is damaged, of another version, or invalid changes nothing.
func ImportPCSettings(p fyne.Preferences, data []byte, adjust func(*Config)) (Config, error) {
	c, err := DecodePCSettings(data)
	if err != nil {
		return Config{}, err
	}
	fromFile := c.Printer
	if adjust != nil {
		adjust(&c)
	}
	if err := c.Validate(); err != nil {
		return Config{}, model.Errorf(model.EInvalidInput, "%s，%s (%s)", model.ErrorMessage(err), unchanged, unchangedEN)
	}
	// A file printer writes wherever its path points, so it must be typed
	// on this PC (setup, --printer), never carried in from another one.
	if c.Printer == fromFile && isFilePrinter(c.Printer) {
		return Config{}, model.Errorf(model.EInvalidInput,
			"设置文件里的打印机是文件路径 %q，文件打印机只能在本机设置或 --printer 中输入，%s (the file names a file printer; type this PC's printer with --printer; %s)",
			c.Printer, unchanged, unchangedEN)
	}
	if err := SaveConfig(p, c); err != nil {
		return Config{}, err
	}
	return c, nil
}

// isFilePrinter reports a "file:" printer address.
func isFilePrinter(addr string) bool {
	scheme, _, ok := strings.Cut(strings.TrimSpace(addr), ":")
	return ok && strings.EqualFold(scheme, "file")
}
