package printing

import (
	"context"
	"sync"
	"time"

	"jiaohao/model"
)

// AlertChime plays the built-in chime on this PC's speakers for the
// manager's alerts. One chime plays at a time: one asked for while another
// plays is dropped, since a second chime on top tells the manager nothing
// more. A PC without a sound engine stays silent and says why once.
type AlertChime struct {
	engine Engine
	logf   func(format string, args ...any)
	mu     sync.Mutex
	busy   bool
	warned bool
	wg     sync.WaitGroup
}

// NewAlertChime uses e, or finds the engine by name when e is nil.
func NewAlertChime(e Engine, name string, logf func(format string, args ...any)) *AlertChime {
	c := &AlertChime{engine: e, logf: logf}
	if c.engine == nil {
		if found, err := FindEngine(name); err == nil {
			c.engine = found
		} else {
			c.warned = true
			logf("printing: alert sound off: %s", model.ErrorMessage(err))
		}
	}
	return c
}

// Play starts the chime and returns at once.
func (c *AlertChime) Play() {
	c.mu.Lock()
	if c.engine == nil || c.busy {
		c.mu.Unlock()
		return
	}
	c.busy = true
	c.mu.Unlock()
	c.wg.Go(func() {
		err := c.play()
		c.mu.Lock()
		c.busy = false
		warn := err != nil && !c.warned
		c.warned = c.warned || err != nil
		c.mu.Unlock()
		if warn {
			c.logf("printing: alert sound failed: %v", err)
		}
	})
}

// Wait returns once the chime playing now, if any, has ended.
func (c *AlertChime) Wait() { c.wg.Wait() }

func (c *AlertChime) play() error {
	wav, err := defaultChimePath()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.engine.Play(ctx, wav)
}
