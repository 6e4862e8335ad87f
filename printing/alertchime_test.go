package printing

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// blockingPlayer plays until released, counting the chimes it played.
type blockingPlayer struct {
	started chan string
	release chan struct{}
	mu      sync.Mutex
	plays   int
}

func (p *blockingPlayer) Name() string                                { return "fake" }
func (p *blockingPlayer) Speak(context.Context, string, string) error { return nil }
func (p *blockingPlayer) Play(_ context.Context, wav string) error {
	p.started <- wav
	<-p.release
	p.mu.Lock()
	defer p.mu.Unlock()
	p.plays++
	return nil
}

// One chime at a time: one asked for while another plays is dropped, the
// next after it plays again, and it is the built-in chime.
func TestAlertChimeOneAtATime(t *testing.T) {
	p := &blockingPlayer{started: make(chan string), release: make(chan struct{})}
	c := NewAlertChime(p, "", t.Logf)
	c.Play()
	if wav := <-p.started; !strings.HasSuffix(wav, "jiaohao-chime.wav") {
		t.Fatalf("played %q, want the built-in chime", wav)
	}
	c.Play() // dropped: the first still plays
	p.release <- struct{}{}
	c.Wait()
	c.Play()
	<-p.started
	p.release <- struct{}{}
	c.Wait()
	if p.plays != 2 {
		t.Fatalf("%d chimes played, want 2", p.plays)
	}
}
