package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
	"jiaohao/printing"
)

// The hall's voice follows the branch settings: after the manager changes
// the call template, the hall says the new one without a restart. The
// engine is a stand-in espeak-ng on PATH that writes down what it is told.
func TestHallVoiceFollowsBranchTemplate(t *testing.T) {
	dir := t.TempDir()
	said := filepath.Join(dir, "said.txt")
	script := "#!/bin/sh\nfor a in \"$@\"; do last=\"$a\"; done\nprintf '%s\\n' \"$last\" >> " + said + "\n"
	if err := os.WriteFile(filepath.Join(dir, "espeak-ng"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	st := daotest.SQLite(t)
	ctx, cancel := context.WithCancel(context.Background())
	be := &backend{st: st}
	t.Cleanup(func() { cancel(); be.close() })
	okSet := func(k, v string) {
		if err := st.SetSetting(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	okSet("voice_engine", "espeak-ng")
	okSet("voice_repeat", "1")
	be.devices(ctx, Config{Role: model.RoleScreen, Lang: "zh"}, t.Logf)
	ann, ok := be.ann.(*printing.Announcer)
	if !ok {
		t.Fatalf("the hall's voice is %T, want the announcer", be.ann)
	}
	okSet("voice_template", "{number} 请去 {window} 号台")
	tk := model.Ticket{Number: "A007", Window: 4}
	for deadline := time.Now().Add(20 * time.Second); ; {
		ann.Announce(tk)
		flushCtx, done := context.WithTimeout(ctx, 5*time.Second)
		_ = ann.Flush(flushCtx)
		done()
		b, _ := os.ReadFile(said)
		if strings.Contains(string(b), "请去") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hall still says the old template after the setting changed:\n%s", b)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
