package printing

import (
	"context"
	"fmt"
	"io"
	"log"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"

	"jiaohao/model"
)

// LEDConfig describes one LED bar controller on a serial port. Vendors
// differ in framing and encoding, so both come from the settings: the wrong
// encoding is what makes a bar show boxes.
type LEDConfig struct {
	Port       string // /dev/ttyUSB1, COM4
	Baud       int    // default 9600
	Prefix     []byte // sent before each line (see ParseHex)
	Suffix     []byte // sent after each line
	Encoding   string // GB2312 (default), GBK or UTF-8
	MinBackoff time.Duration
	MaxBackoff time.Duration
	Logf       func(format string, args ...any)
	// Open replaces the serial port, for tests and other transports.
	Open func() (io.WriteCloser, error)
}

// LED drives one bar. Show never blocks: the worker writes the newest text,
// and a dead port is reopened with backoff while the text waits.
type LED struct {
	cfg     LEDConfig
	mu      sync.Mutex
	frame   []byte // newest frame shown
	seq     uint64 // bumped by every Show
	written uint64 // seq of the frame last written
	fault   string
	changed signal
	cancel  context.CancelFunc
	done    chan struct{}
}

// NewLED checks the encoding and starts the worker; Close stops it.
func NewLED(cfg LEDConfig) (*LED, error) {
	if _, err := EncodeLED("", cfg.Encoding); err != nil {
		return nil, err
	}
	if cfg.Baud <= 0 {
		cfg.Baud = 9600
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = time.Second
	}
	if cfg.MaxBackoff < cfg.MinBackoff {
		cfg.MaxBackoff = max(30*time.Second, cfg.MinBackoff)
	}
	if cfg.Logf == nil {
		cfg.Logf = log.Printf
	}
	if cfg.Open == nil {
		port, baud := cfg.Port, cfg.Baud
		cfg.Open = func() (io.WriteCloser, error) { return openSerial(port, baud) }
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &LED{cfg: cfg, changed: newSignal(), cancel: cancel, done: make(chan struct{})}
	go l.run(ctx)
	return l, nil
}

// Show puts text on the bar, replacing whatever was waiting to be shown.
func (l *LED) Show(text string) {
	b, _ := EncodeLED(text, l.cfg.Encoding) // encoding checked in NewLED
	frame := make([]byte, 0, len(l.cfg.Prefix)+len(b)+len(l.cfg.Suffix))
	frame = append(append(append(frame, l.cfg.Prefix...), b...), l.cfg.Suffix...)
	l.mu.Lock()
	l.frame = frame
	l.seq++
	l.changed.fire()
	l.mu.Unlock()
}

// Fault is "" while the bar works, else one sentence for the staff.
func (l *LED) Fault() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fault
}

// Flush waits until the last text shown has been written, or ctx ends.
func (l *LED) Flush(ctx context.Context) error {
	for {
		l.mu.Lock()
		busy, ch := l.seq != l.written, l.changed.ch
		l.mu.Unlock()
		if !busy {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("LED bar %s: %w", l.cfg.Port, ctx.Err())
		}
	}
}

// Close stops the worker and closes the port.
func (l *LED) Close() error {
	l.cancel()
	<-l.done
	return nil
}

func (l *LED) run(ctx context.Context) {
	defer close(l.done)
	var port io.WriteCloser
	defer func() {
		if port != nil {
			port.Close()
		}
	}()
	failures := 0
	for {
		l.mu.Lock()
		frame, seq, busy, ch := l.frame, l.seq, l.seq != l.written, l.changed.ch
		l.mu.Unlock()
		if !busy {
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return
			}
		}
		var err error
		if port == nil {
			port, err = l.cfg.Open()
		}
		if err == nil {
			_, err = port.Write(frame)
		}
		l.mu.Lock()
		if err == nil {
			l.written = seq // a newer Show, if any, is still pending
			if failures > 0 {
				l.cfg.Logf("printing: LED bar %s works again", l.cfg.Port)
			}
			failures, l.fault = 0, ""
		} else {
			if port != nil {
				port.Close()
				port = nil
			}
			failures++
			l.fault = fmt.Sprintf("LED 条屏 %s 故障，正在重试：%v", l.cfg.Port, err)
			if failures == 1 {
				l.cfg.Logf("printing: LED bar %s: %v", l.cfg.Port, err)
			}
		}
		l.changed.fire()
		l.mu.Unlock()
		if err != nil && !sleepCtx(ctx, backoff(failures, l.cfg.MinBackoff, l.cfg.MaxBackoff)) {
			return
		}
	}
}

// EncodeLED encodes text for a controller: "GB2312" (EUC-CN, the default),
// "GBK" or "UTF-8". A rune a GB2312 controller cannot show becomes '?', so
// one rare character never garbles the rest of the line.
func EncodeLED(text, encoding string) ([]byte, error) {
	// One line, and no byte of it may be a framing byte (STX, ETX) or a
	// controller command.
	text = model.StripUnsafe(strings.ReplaceAll(text, "\n", " "))
	switch strings.ToUpper(strings.ReplaceAll(encoding, "-", "")) {
	case "", "GB2312":
		return encodeGB2312(text), nil
	case "GBK":
		b, err := simplifiedchinese.GBK.NewEncoder().Bytes([]byte(strings.ToValidUTF8(text, "?")))
		if err != nil {
			return encodeGB2312(text), nil // a rune outside GBK: fall back rune by rune
		}
		return b, nil
	case "UTF8":
		return []byte(strings.ToValidUTF8(text, "?")), nil
	}
	return nil, model.Errorf(model.EInvalidInput, "条屏编码只能是 GB2312、GBK 或 UTF-8，收到 %q", encoding)
}

// encodeGB2312 writes EUC-CN: ASCII as is, and a two-byte GBK code only
// when both bytes lie in A1–FE, the GB2312 range.
func encodeGB2312(text string) []byte {
	enc := simplifiedchinese.GBK.NewEncoder()
	out := make([]byte, 0, len(text))
	var buf [utf8.UTFMax]byte
	for _, r := range text {
		if r < utf8.RuneSelf {
			out = append(out, byte(r))
			continue
		}
		b, err := enc.Bytes(buf[:utf8.EncodeRune(buf[:], r)])
		if err != nil || len(b) != 2 || b[0] < 0xA1 || b[0] > 0xFE || b[1] < 0xA1 || b[1] > 0xFE {
			out = append(out, '?')
			continue
		}
		out = append(out, b...)
	}
	return out
}
