package printing

import (
	"context"
	"fmt"
	"log"
	"strconv"
	"strings"
	"sync"
	"time"

	"jiaohao/model"
)

// AnnouncerConfig sets up an Announcer; zero values take the defaults of
// the settings (voice_template, voice_template_en, voice_repeat).
type AnnouncerConfig struct {
	Engine     Engine // nil: FindEngine(EngineName)
	EngineName string // "auto" (default), "espeak-ng", "sapi", "say"
	Template   string // Chinese; default 请 {number} 号到 {window} 号窗口办理
	TemplateEN string // spoken after the Chinese one when English is set
	// RequeueTemplate and RequeueTemplateEN say a requeued ticket's call
	// (重叫); default 请 {number} 号重新到 {window} 号窗口.
	RequeueTemplate, RequeueTemplateEN string
	English                            bool
	Repeat                             int           // times each call is said; default 2
	Chime                              string        // WAV file played before each call; ChimeDefault: built in; "" none
	Pause                              time.Duration // silence between repeats; default 600ms
	Capacity                           int           // calls waiting to be said; default 20
	Timeout                            time.Duration // one utterance; default 30s
	Logf                               func(format string, args ...any)
}

// Announcer says calls one at a time, in call order: a second call waits
// for the first to finish instead of cutting it off.
type Announcer struct {
	cfg     AnnouncerConfig
	engine  Engine
	mu      sync.Mutex
	calls   []model.Ticket
	busy    bool
	fault   string
	changed signal
	cancel  context.CancelFunc
	done    chan struct{}
}

// NewAnnouncer starts the worker. A missing engine is not an error: it is
// logged once and reported by Fault, and the screen goes on without voice.
func NewAnnouncer(cfg AnnouncerConfig) *Announcer {
	cfg = withDefaults(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	a := &Announcer{cfg: cfg, engine: cfg.Engine, changed: newSignal(), cancel: cancel, done: make(chan struct{})}
	if a.engine == nil {
		e, err := FindEngine(cfg.EngineName)
		if err != nil {
			a.fault = model.ErrorMessage(err)
			cfg.Logf("printing: voice off: %s", a.fault)
			close(a.done)
			return a
		}
		a.engine = e
	}
	go a.run(ctx)
	return a
}

// withDefaults fills what cfg leaves out.
func withDefaults(cfg AnnouncerConfig) AnnouncerConfig {
	if cfg.Template == "" {
		cfg.Template = model.DefaultSettings["voice_template"]
	}
	if cfg.TemplateEN == "" {
		cfg.TemplateEN = model.DefaultSettings["voice_template_en"]
	}
	if cfg.RequeueTemplate == "" {
		cfg.RequeueTemplate = model.DefaultSettings["voice_template_requeue"]
	}
	if cfg.RequeueTemplateEN == "" {
		cfg.RequeueTemplateEN = model.DefaultSettings["voice_template_requeue_en"]
	}
	if cfg.Repeat <= 0 {
		cfg.Repeat = 2
	}
	if cfg.Pause <= 0 {
		cfg.Pause = 600 * time.Millisecond
	}
	if cfg.Capacity <= 0 {
		cfg.Capacity = 20
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.Logf == nil {
		cfg.Logf = log.Printf
	}
	return cfg
}

// Retune makes the next calls say what the branch settings now ask: the
// templates, English, repeats and chime. The engine stays the one chosen at
// the start, as does a call being said.
func (a *Announcer) Retune(next AnnouncerConfig) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := withDefaults(next)
	// Field by field: the worker reads the others (Logf, Timeout) unlocked.
	a.cfg.Template, a.cfg.TemplateEN = n.Template, n.TemplateEN
	a.cfg.RequeueTemplate, a.cfg.RequeueTemplateEN = n.RequeueTemplate, n.RequeueTemplateEN
	a.cfg.English, a.cfg.Repeat, a.cfg.Chime = n.English, n.Repeat, n.Chime
}

// spoken is the configuration the next call is said with.
func (a *Announcer) spoken() AnnouncerConfig {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cfg
}

// Announce queues a call (t.Number to t.Window) and returns at once. When
// calls pile up past Capacity the oldest waiting one is dropped: the hall
// screen still shows it, and a stale announcement only confuses.
func (a *Announcer) Announce(t model.Ticket) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.engine == nil {
		return
	}
	if len(a.calls) >= a.cfg.Capacity {
		a.cfg.Logf("printing: voice behind by %d calls, %s not announced", len(a.calls), a.calls[0].Number)
		a.calls = a.calls[1:]
	}
	a.calls = append(a.calls, t)
	a.changed.fire()
}

// Fault is "" while voice works, else one sentence for the staff.
func (a *Announcer) Fault() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.fault
}

// Flush waits until every queued call has been said, or ctx ends.
func (a *Announcer) Flush(ctx context.Context) error {
	for {
		a.mu.Lock()
		idle, ch := len(a.calls) == 0 && !a.busy, a.changed.ch
		a.mu.Unlock()
		if idle {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("announcements still playing: %w", ctx.Err())
		}
	}
}

// Close stops the worker after the utterance in progress is cut short.
func (a *Announcer) Close() error {
	a.cancel()
	<-a.done
	return nil
}

func (a *Announcer) run(ctx context.Context) {
	defer close(a.done)
	for {
		a.mu.Lock()
		ch := a.changed.ch
		if len(a.calls) == 0 {
			a.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return
			}
		}
		t := a.calls[0]
		a.calls = a.calls[1:]
		a.busy = true
		a.mu.Unlock()

		err := a.say(ctx, t)
		if ctx.Err() != nil {
			return
		}
		a.mu.Lock()
		a.busy = false
		if err != nil {
			if a.fault == "" {
				a.cfg.Logf("printing: voice (%s): %v", a.engine.Name(), err)
			}
			a.fault = fmt.Sprintf("语音播报失败（%s）：%v", a.engine.Name(), err)
		} else {
			a.fault = ""
		}
		a.changed.fire()
		a.mu.Unlock()
	}
}

// say plays the chime once, then the call Repeat times; a failure is not
// retried, since a late announcement would call the wrong customer.
func (a *Announcer) say(ctx context.Context, t model.Ticket) error {
	cfg := a.spoken()
	// A chime that cannot play must not silence the call itself.
	var chimeErr error
	if wav, err := chimeFile(cfg.Chime); err != nil {
		chimeErr = err
	} else if wav != "" {
		if err := a.utter(ctx, func(ctx context.Context) error { return a.engine.Play(ctx, wav) }); err != nil {
			chimeErr = fmt.Errorf("chime: %w", err)
		}
	}
	zh := SpeechText(CallTemplate(cfg.Template, cfg.RequeueTemplate, t), t, "zh")
	en := SpeechText(CallTemplate(cfg.TemplateEN, cfg.RequeueTemplateEN, t), t, "en")
	for i := 0; i < cfg.Repeat; i++ {
		if i > 0 && !sleepCtx(ctx, cfg.Pause) {
			return ctx.Err()
		}
		if err := a.utter(ctx, func(ctx context.Context) error { return a.engine.Speak(ctx, zh, "zh") }); err != nil {
			return err
		}
		if cfg.English {
			if err := a.utter(ctx, func(ctx context.Context) error { return a.engine.Speak(ctx, en, "en") }); err != nil {
				return err
			}
		}
	}
	return chimeErr
}

func (a *Announcer) utter(ctx context.Context, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.Timeout)
	defer cancel()
	return f(ctx)
}

// AnnouncerSettings reads the voice settings: voice_template,
// voice_template_en (English is spoken when it is not empty), the
// requeue templates and voice_repeat. engine is the per-PC override ("" or "auto": automatic).
func AnnouncerSettings(s model.Settings, engine, chime string) AnnouncerConfig {
	repeat, _ := strconv.Atoi(s.Raw["voice_repeat"])
	return AnnouncerConfig{
		EngineName:        engine,
		Template:          s.Raw["voice_template"],
		TemplateEN:        s.Raw["voice_template_en"],
		RequeueTemplate:   s.Raw["voice_template_requeue"],
		RequeueTemplateEN: s.Raw["voice_template_requeue_en"],
		English:           strings.TrimSpace(s.Raw["voice_template_en"]) != "",
		Repeat:            repeat,
		Chime:             chime,
	}
}
