package printing

import (
	"context"
	"errors"
	"io"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// Side effects never roll back state: a call whose voice, LED and print all
// fail leaves the ticket called, with exactly one call event.
func TestDeviceFailuresLeaveTicketCalled(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := testCtx(t)
	tk, err := st.TakeTicket(ctx, "A", 0, "kiosk")
	if err != nil {
		t.Fatal(err)
	}
	before, err := st.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	called, err := st.CallNext(ctx, 1, "")
	if err != nil || called.ID != tk.ID {
		t.Fatalf("call next: %+v, %v", called, err)
	}

	voice := NewAnnouncer(AnnouncerConfig{Engine: &timedEngine{err: errors.New("no audio device")}, Repeat: 1, Logf: quietLog})
	defer voice.Close()
	opens := make(chan struct{}, 8)
	led, err := NewLED(LEDConfig{Port: "COM9", Logf: quietLog, Open: func() (io.WriteCloser, error) {
		select { // retries go on until Close; the test reads the first two
		case opens <- struct{}{}:
		default:
		}
		return nil, errors.New("port gone")
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer led.Close()
	tries := make(chan int, 8)
	printer := &fakePrinter{fail: func(_ context.Context, n int) error {
		select { // a full buffer must not block the queue's Close at the end
		case tries <- n:
		default:
		}
		return errFakePaperOut
	}}
	prints := fastQueue(printer, StaticHeader(Header{}))
	defer prints.Close()

	// What the caller and the screen do after the call committed.
	voice.Announce(called)
	led.Show("请 " + called.Number + " 号到 1 号窗口")
	prints.Submit(called, model.Position{})

	if err := voice.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	<-opens
	<-opens // the second open comes after the first failure was recorded
	<-tries
	<-tries
	for name, f := range map[string]string{"voice": voice.Fault(), "LED": led.Fault(), "printer": prints.Fault()} {
		if f == "" {
			t.Errorf("%s failure not reported", name)
		}
	}

	got, err := st.Ticket(ctx, tk.ID)
	if err != nil || got.Status != model.Called || got.Window != 1 {
		t.Fatalf("ticket after device failures: %+v, %v", got, err)
	}
	evs, err := st.EventsSince(ctx, before.Version, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Kind != model.EvCall || evs[0].TicketID != tk.ID {
		t.Errorf("events after the call: %+v, want one call event", evs)
	}
}

// chanDisplay hands every text shown to the test.
type chanDisplay chan string

func (c chanDisplay) Show(s string) { c <- s }

// LED boards follow the store's event stream: the window bar shows the
// call made at its window, the hall bar the latest calls.
func TestLEDBoardsFollowTheStore(t *testing.T) {
	st := daotest.SQLite(t)
	ctx, cancel := context.WithCancel(testCtx(t))
	for i := 0; i < 2; i++ {
		if _, err := st.TakeTicket(ctx, "A", 0, "kiosk"); err != nil {
			t.Fatal(err)
		}
	}
	win2, hall := make(chanDisplay, 16), make(chanDisplay, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		RunLEDBoards(ctx, st, &LEDBoard{Display: win2, Window: 2}, &LEDBoard{Display: hall, Lines: 2})
	}()
	if s := <-win2; s != "" { // the snapshot: nothing called yet
		t.Errorf("window bar before any call: %q", s)
	}
	<-hall
	a, err := st.CallNext(ctx, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.CallNext(ctx, 2, "")
	if err != nil {
		t.Fatal(err)
	}
	if s := <-win2; s != "请 "+b.Number+" 号到 2 号窗口" {
		t.Errorf("window bar: %q", s)
	}
	<-hall // after the first call
	if s, want := <-hall, b.Number+"→2号窗口  "+a.Number+"→1号窗口"; s != want {
		t.Errorf("hall bar: %q, want %q", s, want)
	}
	cancel()
	<-done // RunLEDBoards returns once ctx ends
}
