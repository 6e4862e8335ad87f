package app

import (
	"context"

	"jiaohao/model"
	"jiaohao/printing"
)

// startLED drives an LED bar from the followed live state: a caller's bar
// shows its window's call, any other role's bar the hall's last calls.
// What the address leaves out comes from the branch's led_format setting,
// read before the first line so a bar never shows boxes for want of it,
// and followed: a manager who fixes the encoding fixes every bar, which
// reopens with the new framing. A dead port is retried and logged; it
// never blocks the role.
func (be *backend) startLED(ctx context.Context, addr string, cfg Config, logf func(string, ...any)) {
	lctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	be.closers = append(be.closers, func() { cancel(); <-done })
	go func() {
		defer close(done)
		stop := func() {}
		followSetting(lctx, be.st, "led_format", logf, func(format string) {
			stop()
			run, restart := context.WithCancel(lctx)
			ran := make(chan struct{})
			go func() {
				defer close(ran)
				be.runLED(run, addr, format, cfg, logf)
			}()
			stop = func() { restart(); <-ran }
		})
		stop()
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
	board := &printing.LEDBoard{Display: led, Lines: a.Lines, Staff: a.Staff}
	if roleSpec(cfg.Role).Window {
		board.Window = cfg.Window
	}
	go reportFaults(model.WithActor(ctx, terminalName(cfg)), be.st, "led", led.Fault, logf)
	printing.RunLEDBoards(ctx, be.st, board)
}
