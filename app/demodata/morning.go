package demodata

import (
	"context"
	"fmt"

	"jiaohao/model"
)

// Morning fills a fresh branch with a believable morning: people waiting
// for each service, two windows busy, one number passed and a notice. The
// demo, the screenshots and the screens' layout tests start from it.
func Morning(ctx context.Context, st model.Store) error {
	for _, svc := range []struct {
		code string
		n    int
	}{{"A", 9}, {"B", 4}, {"V", 1}} {
		for range svc.n {
			if _, err := st.TakeTicket(ctx, svc.code, 0, "demo"); err != nil {
				return fmt.Errorf("demo take %s: %w", svc.code, err)
			}
		}
	}
	steps := []struct {
		window int
		then   string
	}{{1, "finish"}, {2, "pass"}, {1, "serve"}, {2, "serve"}, {3, ""}}
	for _, s := range steps {
		t, err := st.CallNext(ctx, s.window, "")
		if err != nil {
			return fmt.Errorf("demo call at %d: %w", s.window, err)
		}
		switch s.then {
		case "finish":
			if t, err = st.StartServing(ctx, t.ID, s.window); err == nil {
				_, err = st.Finish(ctx, t.ID, s.window)
			}
		case "pass":
			_, err = st.Pass(ctx, t.ID, s.window)
		case "serve":
			_, err = st.StartServing(ctx, t.ID, s.window)
		}
		if err != nil {
			return fmt.Errorf("demo %s at %d: %w", s.then, s.window, err)
		}
	}
	return st.SetSetting(ctx, "notice", "欢迎光临！请留意屏幕叫号，过号请到窗口咨询。 Welcome — please watch the screen for your number.")
}
