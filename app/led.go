package app

import (
	"context"
	"time"

	"jiaohao/model"
	"jiaohao/printing"
)

// startLED drives an LED bar from the event stream: a caller's bar shows its
// window's call, any other role's bar the hall's last calls. What the
// address leaves out comes from the branch's led_format setting, read
// before the first line so a bar never shows boxes for want of it, and
// followed: a manager who fixes the encoding fixes every bar. A dead port
// is retried and logged; it never blocks the role.
func (be *backend) startLED(ctx context.Context, addr string, cfg Config, logf func(string, ...any)) {
	lctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	be.closers = append(be.closers, func() { cancel(); <-done })
	go func() {
		defer close(done)
		format, ok := settingValue(lctx, be.st, "led_format", logf)
		for ok {
			run, restart := context.WithCancel(lctx)
			var next string
			var changed bool
			watched := make(chan struct{})
			go func() {
				defer close(watched)
				next, changed = nextValue(run, be.st, "led_format", format, ledCheck)
				restart()
			}()
			be.runLED(run, addr, format, cfg, logf)
			restart()
			<-watched
			format, ok = next, changed
		}
	}()
}

// runLED shows the calls on one bar set up by addr over format until ctx
// ends.
func (be *backend) runLED(ctx context.Context, addr, format string, cfg Config, logf func(string, ...any)) {
	a, err := printing.ParseLEDAddressOver(addr, format)
	if err != nil {
		logf("LED: %s", model.ErrorMessage(err))
		<-ctx.Done() // a later led_format may mend it
		return
	}
	a.Config.Logf = logf
	led, err := printing.NewLED(a.Config)
	if err != nil {
		logf("LED: %s", model.ErrorMessage(err))
		<-ctx.Done()
		return
	}
	defer led.Close()
	board := &printing.LEDBoard{Display: led, Lines: a.Lines}
	if roleSpec(cfg.Role).Window {
		board.Window = cfg.Window
	}
	go reportFaults(model.WithActor(ctx, terminalName(cfg)), be.st, "led", led.Fault, logf)
	printing.RunLEDBoards(ctx, be.st, board)
}

// ledCheck is how often a bar looks at the branch's led_format.
var ledCheck = 30 * time.Second
