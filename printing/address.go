package printing

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"jiaohao/model"
)

// Printer sends one ticket to a device. Print is called from one worker at
// a time and may take as long as the device does; ctx bounds it.
type Printer interface {
	Print(ctx context.Context, s Slip) error
	// String names the printer for staff: never more than its address.
	String() string
}

// Default timeouts for device I/O: a thermal printer answers in well under
// a second, so anything longer is a fault worth reporting.
const (
	dialTimeout  = 5 * time.Second
	writeTimeout = 10 * time.Second
)

// OpenPrinter parses a printer address from the settings:
//
//	escpos+serial:///dev/ttyUSB0?baud=9600   (escpos+serial://COM3 on Windows)
//	escpos+tcp://host:9100
//	spool:NAME                               (lp on Linux/macOS, the Windows spooler)
//	file:PATH                                (appends the ESC/POS bytes of each job)
//
// Any of them takes ?paper=58 or ?paper=80 (default 80). Nothing is opened
// yet: each job opens the device, so a printer unplugged and plugged back
// in works again without a restart.
func OpenPrinter(addr string) (Printer, error) {
	addr = strings.TrimSpace(addr)
	scheme, rest, ok := strings.Cut(addr, ":")
	if !ok || rest == "" {
		return nil, badAddress(addr)
	}
	rest, query, _ := strings.Cut(rest, "?")
	q, err := url.ParseQuery(query)
	if err != nil {
		return nil, badAddress(addr)
	}
	paper := Paper80
	switch q.Get("paper") {
	case "", "80":
	case "58":
		paper = Paper58
	default:
		return nil, model.Errorf(model.EInvalidInput, "打印纸宽度只能是 58 或 80 (mm)，收到 %q", q.Get("paper"))
	}
	// status=off stops the paper query, for a printer that mishandles it.
	status := true
	switch q.Get("status") {
	case "", "on":
	case "off":
		status = false
	default:
		return nil, model.Errorf(model.EInvalidInput, "打印机 status 只能是 on 或 off，收到 %q", q.Get("status"))
	}
	switch strings.ToLower(scheme) {
	case "escpos+tcp":
		host := strings.TrimPrefix(rest, "//")
		if _, _, err := net.SplitHostPort(host); err != nil {
			host = net.JoinHostPort(host, "9100")
		}
		if strings.HasPrefix(host, ":") {
			return nil, badAddress(addr)
		}
		return &escposPrinter{name: "escpos+tcp://" + host, paper: paper, open: tcpOpener(host), status: status}, nil
	case "escpos+serial":
		port := serialName(rest)
		baud := 9600
		if v := q.Get("baud"); v != "" {
			if baud, err = strconv.Atoi(v); err != nil || baud <= 0 {
				return nil, model.Errorf(model.EInvalidInput, "串口波特率 %q 无效", v)
			}
		}
		if port == "" {
			return nil, badAddress(addr)
		}
		return &escposPrinter{name: "escpos+serial://" + port, paper: paper, open: serialOpener(port, baud), status: status}, nil
	case "file":
		path := strings.TrimPrefix(rest, "//")
		return &escposPrinter{name: "file:" + path, paper: paper, open: fileOpener(path)}, nil
	case "spool":
		return newSpoolPrinter(rest, paper), nil
	}
	return nil, badAddress(addr)
}

func badAddress(addr string) error {
	return model.Errorf(model.EInvalidInput,
		"打印机地址 %q 无法识别，应为 escpos+serial://端口、escpos+tcp://主机:端口、spool:打印机名 或 file:路径", addr)
}

// serialName turns the URL part into a port name: "///dev/ttyUSB0" is
// /dev/ttyUSB0, "//COM3" and "///COM3" are COM3.
func serialName(rest string) string {
	name := strings.TrimPrefix(rest, "//")
	if len(name) > 1 && name[0] == '/' && !strings.Contains(name[1:], "/") &&
		strings.HasPrefix(strings.ToUpper(name[1:]), "COM") {
		name = name[1:]
	}
	return name
}

// escposPrinter renders ESC/POS and writes it to whatever open returns.
type escposPrinter struct {
	name   string
	paper  Paper
	open   func(ctx context.Context) (io.WriteCloser, error)
	status bool // ask for the paper sensor before each job (see paper.go)
}

func (p *escposPrinter) String() string { return p.name }

func (p *escposPrinter) Print(ctx context.Context, s Slip) error {
	return p.write(ctx, RenderESCPOS(s, p.paper))
}

// write sends raw bytes; closing the device when ctx ends unblocks a write
// stuck on a printer that went away mid-ticket.
func (p *escposPrinter) write(ctx context.Context, b []byte) error {
	w, err := p.open(ctx)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { w.Close() })
	if c, ok := w.(statusConn); ok && p.status && paperOut(c, statusWait) {
		if stop() {
			w.Close()
		}
		return errPaperOut
	}
	_, err = w.Write(b)
	if f, ok := w.(interface{ finish() }); ok && err == nil {
		f.finish()
	}
	if stop() { // not yet closed by the AfterFunc
		if cerr := w.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	if err != nil {
		return fmt.Errorf("write to %s: %w", p.name, err)
	}
	return nil
}

func tcpOpener(host string) func(ctx context.Context) (io.WriteCloser, error) {
	return func(ctx context.Context) (io.WriteCloser, error) {
		d := net.Dialer{Timeout: dialTimeout}
		c, err := d.DialContext(ctx, "tcp", host)
		if err != nil {
			return nil, fmt.Errorf("connect to printer: %w", err) // the dial error names the host
		}
		c.SetWriteDeadline(time.Now().Add(writeTimeout))
		return tcpConn{c}, nil
	}
}

func fileOpener(path string) func(ctx context.Context) (io.WriteCloser, error) {
	return func(context.Context) (io.WriteCloser, error) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("open printer file: %w", err)
		}
		return f, nil
	}
}
