package offscreen

import (
	"context"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// fyne.Do from many goroutines and Do from the test never overlap (run
// with -race: the counter has no lock of its own), and each fyne.Do
// fires Changed.
func TestFyneDoIsSerialised(t *testing.T) {
	Serialise(test.NewTempApp(t))
	n, inside := 0, false
	touch := func() {
		if inside {
			t.Error("two updates ran at once")
		}
		inside = true
		n++
		inside = false
	}
	ch := Changed()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				fyne.Do(touch)
			}
		})
	}
	for range 100 {
		Do(touch)
	}
	wg.Wait()
	if Do(func() {}); n != 900 {
		t.Fatalf("%d updates ran, want 900", n)
	}
	select {
	case <-ch:
	default:
		t.Fatal("fyne.Do did not fire Changed")
	}
}

// Quiet waits out a burst of updates and returns once they stop; a
// context that ends first ends it.
func TestQuiet(t *testing.T) {
	Serialise(test.NewTempApp(t))
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				fyne.Do(func() {})
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := Quiet(ctx, 50*time.Millisecond); err == nil {
		t.Fatal("Quiet returned while updates kept coming")
	}
	close(stop)
	if err := Quiet(context.Background(), 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}
