package screens

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"jiaohao/assets"
	"jiaohao/model"
)

func loadLang(t *testing.T, code string) map[string]string {
	t.Helper()
	data, err := assets.Lang.ReadFile("lang/" + code + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s.json: %v", code, err)
	}
	return m
}

// Both languages have every key the code asks for, and no others.
func TestTranslationsComplete(t *testing.T) {
	zh, en := loadLang(t, "zh"), loadLang(t, "en")
	for k := range zh {
		if _, ok := en[k]; !ok {
			t.Errorf("en.json lacks %q", k)
		}
	}
	for k := range en {
		if _, ok := zh[k]; !ok {
			t.Errorf("zh.json lacks %q", k)
		}
	}
	used := map[string]bool{}
	files, _ := filepath.Glob("*.go")
	program, _ := filepath.Glob("../app/*.go") // window titles, menus and the setup's sentences (bad)
	files = append(files, program...)
	literal := regexp.MustCompile(`(?:tr|Text|bad)\("([a-z_]+\.[a-z_]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range literal.FindAllStringSubmatch(string(src), -1) {
			used[m[1]] = true
		}
	}
	for _, s := range []model.Status{model.Waiting, model.Called, model.Passed, model.Serving, model.Done, model.Cancelled} {
		used["status."+s.String()] = true
	}
	for _, s := range windowStatuses {
		used["window."+s.String()] = true
	}
	for _, r := range model.Roles() { // every role of the table is named in both languages
		used[r.Label] = true
		used[r.Title] = true
	}
	for _, k := range settingKeys {
		used["setting."+k] = true
	}
	for _, d := range []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"} {
		used["weekday."+d] = true
	}
	for k := range used {
		if _, ok := zh[k]; !ok {
			t.Errorf("the code uses %q, which no translation has", k)
		}
	}
}

func TestEnglishSelectable(t *testing.T) {
	t.Cleanup(func() { SetLanguage("zh") })
	if err := SetLanguage("en"); err != nil {
		t.Fatal(err)
	}
	if got := []string{tr("caller.call"), Title("caller", 3), statusText(model.Serving)}; !slices.Equal(got, []string{"Call next", "Jiaohao · Window 3", "serving"}) {
		t.Fatalf("English texts: %q", got)
	}
	if err := SetLanguage("zh"); err != nil {
		t.Fatal(err)
	}
	if got := tr("caller.call"); got != "叫号" {
		t.Fatalf("back in Chinese: %q", got)
	}
	if err := SetLanguage("fr"); !model.IsCode(err, model.EInvalidInput) {
		t.Fatalf("French: %v, want invalid input", err)
	}
}

// Staff see why the queue cannot be reached, so they can act (a full disk
// is not a network fault); a customer at the kiosk sees only "try again".
func TestUnavailableCauseForStaffOnly(t *testing.T) {
	if err := SetLanguage("zh"); err != nil {
		t.Fatal(err)
	}
	full := model.Errorf(model.EUnavailable, "磁盘已满，请清理数据库所在的磁盘 (the disk is full)")
	if got := errText(full); !strings.Contains(got, "暂时无法连接排队系统") || !strings.Contains(got, "磁盘已满") {
		t.Errorf("staff see %q, want the plain sentence and the cause", got)
	}
	if got := customerErrText(full); strings.Contains(got, "磁盘") || !strings.Contains(got, "暂时无法连接排队系统") {
		t.Errorf("a customer sees %q, want only the plain sentence", got)
	}
	bad := model.Errorf(model.EInvalidInput, "业务 X 已停办")
	if errText(bad) != "业务 X 已停办" || customerErrText(bad) != "业务 X 已停办" {
		t.Errorf("other errors changed: %q / %q", errText(bad), customerErrText(bad))
	}
}
