package printing

import (
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

var (
	paperQuery  = []byte{0x10, 0x04, 0x04} // DLE EOT 4: roll paper sensor status
	errPaperOut = model.Errorf(model.EUnavailable, "打印机缺纸，请更换纸卷 (printer out of paper)")
)

// statusConn is a printer link that can read an answer within a time.
type statusConn interface {
	io.ReadWriteCloser
	readWithin(d time.Duration, b []byte) (int, error)
}

// paperOut asks c for its paper sensor. Only a well-formed answer saying
// "paper end" counts: no answer, or noise, lets the job print.
func paperOut(c statusConn, wait time.Duration) bool {
	if _, err := c.Write(paperQuery); err != nil {
		return false // the job's own write reports a dead link
	}
	var b [1]byte
	if n, err := c.readWithin(wait, b[:]); n != 1 || err != nil {
		return false
	}
	// Bits 1 and 4 are always set and 0, 7 always clear in a status byte;
	// bits 5 and 6 are the paper-end sensor (2 and 3 only say "near end").
	return b[0]&0x93 == 0x12 && b[0]&0x60 == 0x60
}

type tcpConn struct{ net.Conn }

func (c tcpConn) readWithin(d time.Duration, b []byte) (int, error) {
	if err := c.SetReadDeadline(time.Now().Add(d)); err != nil {
		return 0, err
	}
	return c.Read(b)
}

type serialConn struct{ serial.Port }

func (c serialConn) readWithin(d time.Duration, b []byte) (int, error) {
	if err := c.SetReadTimeout(d); err != nil {
		return 0, err
	}
	return c.Read(b) // 0, nil when the time is up
}
