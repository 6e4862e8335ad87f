package app

import (
	"strings"
	"testing"

	"jiaohao/model"
	"jiaohao/screens"
)

// Every role of the table has a screen and a window to open it in, named
// in both languages; the map has no screen for a role outside the table.
// A new role fails here until it has all three; a role that runs in a
// browser (the handheld) has no screen, and a PC set up as one is told
// where its page is. (TestScreenshotEveryRole
// builds each screen on demo data; dao/peer's TestAuthMatrix holds each
// role to its permissions.)
func TestEveryRoleHasAScreen(t *testing.T) {
	t.Cleanup(func() { screens.SetLanguage("zh") })
	for _, spec := range model.Roles() {
		rs, ok := roleScreens[spec.Role]
		switch {
		case !spec.Desktop():
			if ok {
				t.Errorf("%s runs in a browser at %s but has a desktop screen", spec.Role, spec.Page)
			}
			err := Config{Role: spec.Role, Mode: screens.ModeHost, Lang: "zh"}.Validate()
			if model.ErrorCode(err) != model.EInvalidInput || !strings.Contains(model.ErrorMessage(err), spec.Page) {
				t.Errorf("a PC set up as %s: %v, want a sentence naming %s", spec.Role, err, spec.Page)
			}
		case !ok || rs.build == nil:
			t.Errorf("%s has no screen in roleScreens", spec.Role)
		case rs.size.Width <= 0 || rs.size.Height <= 0 || rs.shot.Width <= 0 || rs.shot.Height <= 0:
			t.Errorf("%s has no window size (%v, screenshot %v)", spec.Role, rs.size, rs.shot)
		}
		for _, lang := range screens.Languages {
			if err := screens.SetLanguage(lang); err != nil {
				t.Fatal(err)
			}
			for _, key := range []string{spec.Label, spec.Title} {
				if got := screens.Text(key, "N", 1); got == key || got == "" {
					t.Errorf("%s: %s has no %s translation", spec.Role, key, lang)
				}
			}
		}
	}
	for role := range roleScreens {
		if !role.Valid() {
			t.Errorf("roleScreens has %q, which the role table has not", role)
		}
	}
}
