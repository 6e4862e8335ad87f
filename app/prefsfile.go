package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"fyne.io/fyne/v2"
)

// filePrefs is Fyne's preferences file of this PC, read and written
// directly. The command line needs it because Fyne's own store saves
// through the GUI event loop, which a command never runs. The file format
// is Fyne's: one JSON object of key to value, numbers as JSON numbers. A
// running desktop program notices the new file and reloads it.
type filePrefs struct {
	path string

	mu        sync.Mutex
	values    map[string]any
	listeners []func()
}

var _ fyne.Preferences = (*filePrefs)(nil)

// fynePrefsPath is where Fyne keeps the preferences of appID on goos,
// given the user's home and config folders (the same rule as Fyne's
// internal rootConfigDir): %USERPROFILE%\AppData\Roaming\fyne on Windows,
// ~/Library/Preferences/fyne on macOS, $XDG_CONFIG_HOME/fyne elsewhere.
func fynePrefsPath(goos, home, configDir, appID string) string {
	var root string
	switch goos {
	case "windows":
		root = filepath.Join(home, "AppData", "Roaming")
	case "darwin":
		root = filepath.Join(home, "Library", "Preferences")
	default:
		root = configDir
	}
	return filepath.Join(root, "fyne", appID, "preferences.json")
}

// openFilePrefs loads this PC's preferences of appID; a missing file is an
// empty one.
func openFilePrefs(appID string) (*filePrefs, error) {
	home, _ := os.UserHomeDir()
	cfg, _ := os.UserConfigDir()
	if home == "" && cfg == "" {
		return nil, fmt.Errorf("找不到用户配置目录 (no home or config folder for this user)")
	}
	return loadFilePrefs(fynePrefsPath(runtime.GOOS, home, cfg, appID))
}

func loadFilePrefs(path string) (*filePrefs, error) {
	p := &filePrefs{path: path, values: map[string]any{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(b) == 0) {
		return p, nil
	}
	if err != nil {
		return nil, fmt.Errorf("读取本机设置 %s 失败 (cannot read this PC's preferences): %w", path, err)
	}
	if err := json.Unmarshal(b, &p.values); err != nil || p.values == nil {
		return nil, fmt.Errorf("本机设置文件 %s 已损坏，可删除后重新设置 (this PC's preferences file is damaged; delete it and set the PC up again)", path)
	}
	return p, nil
}

// save writes the file whole; see writeFileAtomic.
func (p *filePrefs) save() error {
	p.mu.Lock()
	b, err := json.Marshal(p.values)
	p.mu.Unlock()
	if err != nil {
		return fmt.Errorf("encode preferences: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(p.path), 0o700); err != nil {
		return err
	}
	return writeFileAtomic(p.path, append(b, '\n'), 0o600)
}

// writeFileAtomic writes a temporary file next to path and renames it into
// place, so a crash or a full disk never leaves half a file to be read.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing left to remove
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func (p *filePrefs) get(key string) (any, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.values[key]
	return v, ok
}

func (p *filePrefs) set(key string, v any) {
	p.mu.Lock()
	p.values[key] = v
	p.mu.Unlock()
	p.changed()
}

func (p *filePrefs) changed() {
	for _, l := range p.ChangeListeners() {
		l()
	}
}

// lookup returns the value of key converted by conv, or fallback.
func lookup[T any](p *filePrefs, key string, fallback T, conv func(any) (T, bool)) T {
	if v, ok := p.get(key); ok {
		if t, ok := conv(v); ok {
			return t
		}
	}
	return fallback
}

func asIs[T any](v any) (T, bool) { t, ok := v.(T); return t, ok }

// asInt accepts the float64 a JSON number decodes to.
func asInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case float64:
		return int(n), true
	}
	return 0, false
}

// asList converts a decoded JSON array ([]any) element by element.
func asList[T any](conv func(any) (T, bool)) func(any) ([]T, bool) {
	return func(v any) ([]T, bool) {
		if t, ok := v.([]T); ok {
			return t, true
		}
		items, ok := v.([]any)
		if !ok {
			return nil, false
		}
		out := make([]T, len(items))
		for i, it := range items {
			if out[i], ok = conv(it); !ok {
				return nil, false
			}
		}
		return out, true
	}
}

func (p *filePrefs) Bool(key string) bool { return p.BoolWithFallback(key, false) }
func (p *filePrefs) BoolWithFallback(key string, fb bool) bool {
	return lookup(p, key, fb, asIs[bool])
}
func (p *filePrefs) SetBool(key string, v bool)       { p.set(key, v) }
func (p *filePrefs) BoolList(key string) []bool       { return p.BoolListWithFallback(key, []bool{}) }
func (p *filePrefs) SetBoolList(key string, v []bool) { p.set(key, v) }
func (p *filePrefs) BoolListWithFallback(key string, fb []bool) []bool {
	return lookup(p, key, fb, asList(asIs[bool]))
}

func (p *filePrefs) Float(key string) float64 { return p.FloatWithFallback(key, 0) }
func (p *filePrefs) FloatWithFallback(key string, fb float64) float64 {
	return lookup(p, key, fb, asIs[float64])
}
func (p *filePrefs) SetFloat(key string, v float64)       { p.set(key, v) }
func (p *filePrefs) FloatList(key string) []float64       { return p.FloatListWithFallback(key, []float64{}) }
func (p *filePrefs) SetFloatList(key string, v []float64) { p.set(key, v) }
func (p *filePrefs) FloatListWithFallback(key string, fb []float64) []float64 {
	return lookup(p, key, fb, asList(asIs[float64]))
}

func (p *filePrefs) Int(key string) int                     { return p.IntWithFallback(key, 0) }
func (p *filePrefs) IntWithFallback(key string, fb int) int { return lookup(p, key, fb, asInt) }
func (p *filePrefs) SetInt(key string, v int)               { p.set(key, v) }
func (p *filePrefs) IntList(key string) []int               { return p.IntListWithFallback(key, []int{}) }
func (p *filePrefs) SetIntList(key string, v []int)         { p.set(key, v) }
func (p *filePrefs) IntListWithFallback(key string, fb []int) []int {
	return lookup(p, key, fb, asList(asInt))
}

func (p *filePrefs) String(key string) string { return p.StringWithFallback(key, "") }
func (p *filePrefs) StringWithFallback(key string, fb string) string {
	return lookup(p, key, fb, asIs[string])
}
func (p *filePrefs) SetString(key string, v string)       { p.set(key, v) }
func (p *filePrefs) StringList(key string) []string       { return p.StringListWithFallback(key, []string{}) }
func (p *filePrefs) SetStringList(key string, v []string) { p.set(key, v) }
func (p *filePrefs) StringListWithFallback(key string, fb []string) []string {
	return lookup(p, key, fb, asList(asIs[string]))
}

func (p *filePrefs) RemoveValue(key string) {
	p.mu.Lock()
	delete(p.values, key)
	p.mu.Unlock()
	p.changed()
}

func (p *filePrefs) AddChangeListener(l func()) {
	p.mu.Lock()
	p.listeners = append(p.listeners, l)
	p.mu.Unlock()
}

func (p *filePrefs) ChangeListeners() []func() {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]func(){}, p.listeners...)
}
