package peer

import (
	"context"
	"net/http"
	"testing"
	"time"

	"jiaohao/model"
)

// A caller takes a number for a customer at its window (窗口代取): the
// server records it as the window's whatever the body could say, and the
// kiosk's stay the kiosk's.
func TestCallerTakesAsWindow(t *testing.T) {
	e := newEnv(t, Options{})
	w := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", e.tokens[model.RoleCaller], `{"service":"A","priority":1}`)
	k := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", e.tokens[model.RoleKiosk], `{"service":"A"}`)
	if w.Source != model.SourceWindow || w.Priority != 1 || k.Source != model.SourceKiosk {
		t.Fatalf("caller's ticket from %q (priority %d), kiosk's from %q; want window and kiosk", w.Source, w.Priority, k.Source)
	}
	stored, err := e.store.Ticket(context.Background(), w.ID)
	if err != nil || stored.Source != model.SourceWindow {
		t.Fatalf("stored source %q (%v), want window", stored.Source, err)
	}
	// The body cannot name a source: strict bodies refuse the field.
	status, body := e.call(t, "POST", "/api/v1/tickets", e.tokens[model.RoleCaller], `{"service":"A","source":"kiosk"}`)
	if status != http.StatusBadRequest || errCode(t, body) != "invalid_input" {
		t.Fatalf("a source in the body: %d %s, want 400 invalid_input", status, body)
	}
	// Through the client a caller PC's Store takes the same way.
	c := e.client(t, model.RoleCaller)
	tk, err := c.TakeTicket(context.Background(), "B", 0, "kiosk")
	if err != nil || tk.Source != model.SourceWindow {
		t.Fatalf("client take: %+v %v, want source window", tk, err)
	}
}

// The manager renames the branch and moves its zone over the peer API; a
// zone the program does not know is refused with a sentence, and a PC
// following the host sees the change without a restart.
func TestManagerSetsBranch(t *testing.T) {
	e := newEnv(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	screen := e.client(t, model.RoleScreen)
	got := make(chan model.Snapshot, 16)
	f := model.NewFollower(screen, func(c model.Change) { got <- c.Snapshot })
	go f.Run(ctx)
	<-f.Loaded()

	for _, body := range []string{`{"name":"总行营业部","time_zone":"Mars/Olympus"}`, `{"name":"","time_zone":"Asia/Shanghai"}`,
		`{"name":"x","time_zone":"Local"}`, `{"name":"x","time_zone":"Asia/Tokyo","extra":1}`} {
		status, b := e.call(t, "PUT", "/api/v1/branch", e.tokens[model.RoleManager], body)
		if status != http.StatusBadRequest || errCode(t, b) != "invalid_input" || errMessage(t, b) == "" {
			t.Fatalf("%s: %d %s, want 400 with a sentence", body, status, b)
		}
	}
	if status, _ := e.call(t, "PUT", "/api/v1/branch", e.tokens[model.RoleCaller], `{"name":"x","time_zone":"Asia/Tokyo"}`); status != http.StatusForbidden {
		t.Fatalf("a caller renamed the branch: %d", status)
	}
	mgr := e.client(t, model.RoleManager)
	if err := mgr.SetBranch(ctx, "总行营业部", "Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case s := <-got:
			if s.Branch == "总行营业部" && s.TimeZone == "Asia/Tokyo" {
				if e.store.Location().String() != "Asia/Tokyo" {
					t.Fatalf("host's store still in %s", e.store.Location())
				}
				return
			}
		case <-deadline:
			t.Fatal("the follower never saw the new branch name and zone")
		}
	}
}
