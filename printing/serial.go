package printing

import (
	"context"
	"fmt"
	"io"

	"go.bug.st/serial"
)

// openSerial opens a serial port 8N1 at baud. go.bug.st/serial covers
// /dev/tty* on Linux and macOS and COMn on Windows, without cgo.
func openSerial(name string, baud int) (io.WriteCloser, error) {
	p, err := serial.Open(name, &serial.Mode{BaudRate: baud, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit})
	if err != nil {
		return nil, fmt.Errorf("open serial port %s: %w", name, err)
	}
	return serialConn{p}, nil // a printer answers its paper status on it
}

func serialOpener(name string, baud int) func(ctx context.Context) (io.WriteCloser, error) {
	return func(context.Context) (io.WriteCloser, error) { return openSerial(name, baud) }
}
