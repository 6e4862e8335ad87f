package printing

import (
	"errors"
	"io"
	"net"
	"time"

	"go.bug.st/serial"

	"jiaohao/model"
)

// Paper status. A thermal printer that is out of paper still takes the
// bytes of a ticket and prints nothing, so a kiosk that only writes would
// count the ticket as printed while the customer walks away empty-handed.
// Before each job the printer is asked for its paper sensor (ESC/POS
// DLE EOT 4); a roll that is out turns into a printer fault and the job
// waits in the queue until the paper is changed.

// statusWait is how long a printer has to answer the paper query. Many
// cheap printers never answer; they print after this short wait.
const statusWait = 500 * time.Millisecond

// lingerWait is how long a network printer may go on sending (a late
// status answer, Auto Status Back) after the ticket: its bytes are read
// and dropped so closing never resets the link under an unprinted ticket.
const lingerWait = time.Second

var (
	paperQuery  = []byte{0x10, 0x04, 0x04} // DLE EOT 4: roll paper sensor status
	errPaperOut = model.Errorf(model.EUnavailable, "打印机缺纸，请更换纸卷 (printer out of paper)")
)

// statusConn is a printer link that can be asked for its status.
type statusConn interface {
	io.ReadWriteCloser
	// discardInput drops what the printer sent unasked, so an old or
	// automatic status is not taken for the answer.
	discardInput()
	// readWithin reads what arrives within d; 0 bytes when nothing did.
	readWithin(d time.Duration, b []byte) (int, error)
}

// paperOut asks c for its paper sensor. Only an answer of the status
// form saying "paper end" counts; no answer lets the job print.
func paperOut(c statusConn, wait time.Duration) bool {
	c.discardInput()
	if _, err := c.Write(paperQuery); err != nil {
		return false // the job's own write reports a dead link
	}
	deadline := time.Now().Add(wait)
	var b [1]byte
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		if n, err := c.readWithin(left, b[:]); n != 1 || err != nil {
			return false
		}
		// A status byte has bits 1 and 4 set and 0 and 7 clear; bits 5 and
		// 6 are the paper-end sensor (2 and 3 only say "near end"). Other
		// bytes (an Auto Status Back block) are skipped.
		if b[0]&0x93 == 0x12 {
			return b[0]&0x60 == 0x60
		}
	}
}

type tcpConn struct{ net.Conn }

func (c tcpConn) readWithin(d time.Duration, b []byte) (int, error) {
	if err := c.SetReadDeadline(time.Now().Add(d)); err != nil {
		return 0, err
	}
	n, err := c.Read(b)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return n, nil
	}
	return n, err
}

func (c tcpConn) discardInput() {
	var buf [64]byte
	for {
		if n, err := c.readWithin(20*time.Millisecond, buf[:]); n == 0 || err != nil {
			return
		}
	}
}

// finish ends a job: no more bytes from us, then whatever the printer still
// sends is read and dropped until it closes or lingerWait passes.
func (c tcpConn) finish() {
	if tc, ok := c.Conn.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	c.SetReadDeadline(time.Now().Add(lingerWait))
	io.Copy(io.Discard, c.Conn)
}

type serialConn struct{ serial.Port }

func (c serialConn) readWithin(d time.Duration, b []byte) (int, error) {
	if err := c.SetReadTimeout(d); err != nil {
		return 0, err
	}
	return c.Read(b) // 0, nil when the time is up
}

func (c serialConn) discardInput() { c.ResetInputBuffer() }
