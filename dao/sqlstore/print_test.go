package sqlstore_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// addKiosk registers a terminal of role with name and a token hash of its
// own.
func addKiosk(t *testing.T, s *sqlstore.GormStore, name string, role model.Role) model.Terminal {
	t.Helper()
	hash := sha256.Sum256([]byte(name))
	term, err := s.AddTerminal(context.Background(), model.Terminal{Name: name, Role: role, TokenHash: hex.EncodeToString(hash[:])})
	if err != nil {
		t.Fatal(err)
	}
	return term
}

// A number taken to print at a kiosk is claimed once: eight claimers at
// once on every ticket, exactly one wins each, the others hear it was
// printed already; another kiosk is told the ticket is not its to print.
func TestClaimPrintOnce(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		ctx := context.Background()
		k1 := addKiosk(t, s, "K1", model.RoleKiosk).ID
		k22 := addKiosk(t, s, "K22", model.RoleKiosk).ID
		const tickets, claimers = 10, 8
		var ids []int64
		for i := 0; i < tickets; i++ {
			tk, err := s.TakeTicketPrintAt(ctx, "A", 0, model.SourceHandheld, k1)
			if err != nil {
				t.Fatal(err)
			}
			if tk.PrintAt != "K1" || tk.PrintKiosk != k1 || tk.PrintedAt != nil || tk.Source != model.SourceHandheld {
				t.Fatalf("taken %+v, want a request for K1 not yet printed", tk)
			}
			ids = append(ids, tk.ID)
		}
		if p, err := s.PendingPrints(ctx, k1); err != nil || len(p) != tickets || p[0].ID != ids[0] {
			t.Fatalf("pending for K1: %d (%v), want %d in issue order", len(p), err, tickets)
		}
		if p, err := s.PendingPrints(ctx, k22); err != nil || len(p) != 0 {
			t.Fatalf("pending for K22: %d (%v), want none", len(p), err)
		}
		if _, err := s.ClaimPrint(ctx, ids[0], k22, "c22"); !model.IsCode(err, model.ENotFound) {
			t.Fatalf("another kiosk's claim: %v, want not found", err)
		}
		followed, err := s.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			start := make(chan struct{})
			var wg sync.WaitGroup
			var mu sync.Mutex
			won, printed := 0, 0
			var other []error
			for c := 0; c < claimers; c++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					mark := fmt.Sprintf("claim-%d", c)
					tk, err := s.ClaimPrint(ctx, id, k1, mark)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil && tk.PrintedAt != nil && tk.ID == id && tk.PrintClaim == mark:
						won++
					case model.IsCode(err, model.EConflict):
						printed++
					default:
						other = append(other, err)
					}
				}()
			}
			close(start)
			wg.Wait()
			if won != 1 || printed != claimers-1 || len(other) > 0 {
				t.Fatalf("ticket %d: %d claims won, %d told printed, others %v; want exactly one winner", id, won, printed, other)
			}
		}
		if p, err := s.PendingPrints(ctx, k1); err != nil || len(p) != 0 {
			t.Fatalf("pending for K1 after the claims: %d (%v), want none", len(p), err)
		}
		var events int
		s.DB().Raw("SELECT COUNT(*) FROM queue_event WHERE kind = ?", model.EvPrinted).Scan(&events)
		if events != tickets {
			t.Fatalf("%d printed events, want one per ticket (%d)", events, tickets)
		}
		// A printed event changes no count: a screen following the events
		// agrees with a fresh snapshot.
		evs, err := s.EventsSince(ctx, followed.Version, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if !followed.Apply(ev) {
				t.Fatalf("event %d (%s) asked for a reload", ev.Version, ev.Kind)
			}
		}
		fresh, err := s.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range fresh.Services {
			if f := followed.Services[i]; f.Code != c.Code || f.Waiting != c.Waiting || f.Taken != c.Taken {
				t.Fatalf("followed %+v, fresh %+v", f, c)
			}
		}
		tk, err := s.Ticket(ctx, ids[0])
		if err != nil || tk.PrintAt != "K1" || tk.PrintedAt == nil || tk.PrintClaim == "" {
			t.Fatalf("ticket after its claim %+v (%v)", tk, err)
		}
	})
}

// Only a kiosk of the branch that is still allowed in can be asked to
// print: any other terminal id is refused in one sentence and takes no
// number. Two kiosks of one name are two kiosks, each asked by its id.
func TestTakePrintAtNamesAKiosk(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		ctx := context.Background()
		gone := addKiosk(t, s, "K9", model.RoleKiosk)
		if err := s.RevokeTerminal(ctx, gone.ID); err != nil {
			t.Fatal(err)
		}
		screen := addKiosk(t, s, "S1", model.RoleScreen)
		for _, id := range []int64{0, -1, 987654, gone.ID, screen.ID} {
			_, err := s.TakeTicketPrintAt(ctx, "A", 0, model.SourceHandheld, id)
			if !model.IsCode(err, model.EInvalidInput) {
				t.Fatalf("print at terminal %d: %v, want invalid input", id, err)
			}
		}
		var n int
		s.DB().Raw("SELECT COUNT(*) FROM ticket").Scan(&n)
		if n != 0 {
			t.Fatalf("%d tickets taken by refused requests", n)
		}
		k7 := addKiosk(t, s, "K7", model.RoleKiosk).ID
		twin := sha256.Sum256([]byte("K7 again"))
		k7b, err := s.AddTerminal(ctx, model.Terminal{Name: "K7", Role: model.RoleKiosk, TokenHash: hex.EncodeToString(twin[:])})
		if err != nil {
			t.Fatal(err)
		}
		first, err := s.TakeTicketPrintAt(ctx, "A", 0, model.SourceHandheld, k7)
		if err != nil {
			t.Fatal(err)
		}
		second, err := s.TakeTicketPrintAt(ctx, "A", 0, model.SourceHandheld, k7b.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.ClaimPrint(ctx, first.ID, k7b.ID, "twin"); !model.IsCode(err, model.ENotFound) {
			t.Fatalf("the other K7 claims the first's print: %v, want not found", err)
		}
		for _, c := range []struct {
			kiosk int64
			want  string
		}{{k7, first.Number}, {k7b.ID, second.Number}} {
			p, err := s.PendingPrints(ctx, c.kiosk)
			if err != nil || len(p) != 1 || p[0].Number != c.want {
				t.Fatalf("pending for kiosk %d: %+v (%v), want %s only", c.kiosk, p, err, c.want)
			}
			if _, err := s.ClaimPrint(ctx, p[0].ID, c.kiosk, "own"); err != nil {
				t.Fatalf("kiosk %d claims its own: %v", c.kiosk, err)
			}
		}
	})
}

// The request is stored with the ticket: a store opened again (the host
// restarted) still has it pending, and a plain number never asks a print.
func TestPrintRequestSurvivesReopen(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		k1 := addKiosk(t, s, "K1", model.RoleKiosk).ID
		want, err := s.TakeTicketPrintAt(ctx, "B", 0, model.SourceHandheld, k1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.TakeTicket(ctx, "A", 0, model.SourceKiosk); err != nil {
			t.Fatal(err)
		}
		s.Close()
		s, err = sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		p, err := s.PendingPrints(ctx, k1)
		if err != nil || len(p) != 1 || p[0].Number != want.Number || p[0].PrintAt != "K1" {
			t.Fatalf("pending after reopening: %+v (%v), want %s only", p, err, want.Number)
		}
	})
}

// A ticket no longer in line is never printed: a kiosk coming back after
// the customer was served or gave up neither lists nor wins it, and the
// refusal is its own answer (not "printed already"), so the kiosk neither
// prints nor tries again. Waiting, called and passed tickets still print.
func TestClaimPrintRefusesTicketsOutOfLine(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		ctx := context.Background()
		k := addKiosk(t, s, "K1", model.RoleKiosk).ID
		take := func() model.Ticket {
			tk, err := s.TakeTicketPrintAt(ctx, "A", 0, model.SourceHandheld, k)
			if err != nil {
				t.Fatal(err)
			}
			return tk
		}
		cancelled, served, passed, waiting := take(), take(), take(), take()
		if _, err := s.Cancel(ctx, cancelled.ID, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetWindowStatus(ctx, 1, model.WindowOpen); err != nil {
			t.Fatal(err)
		}
		for _, step := range []func() error{
			func() error { _, err := s.CallNext(ctx, 1, ""); return err },
			func() error { _, err := s.StartServing(ctx, served.ID, 1); return err },
			func() error { _, err := s.Finish(ctx, served.ID, 1); return err },
			func() error { _, err := s.CallNext(ctx, 1, ""); return err },
			func() error { _, err := s.Pass(ctx, passed.ID, 1); return err },
		} {
			if err := step(); err != nil {
				t.Fatal(err)
			}
		}
		p, err := s.PendingPrints(ctx, k)
		if err != nil || len(p) != 2 || p[0].ID != passed.ID || p[1].ID != waiting.ID {
			t.Fatalf("pending: %+v (%v), want the passed and the waiting ticket only", p, err)
		}
		for _, tk := range []model.Ticket{cancelled, served} {
			if _, err := s.ClaimPrint(ctx, tk.ID, k, "late"); !model.IsCode(err, model.EInvalidTransition) {
				t.Fatalf("claim of %s out of line: %v, want invalid transition", tk.Number, err)
			}
			if got, err := s.Ticket(ctx, tk.ID); err != nil || got.PrintedAt != nil {
				t.Fatalf("%s after the refused claim: %+v (%v), want unclaimed", tk.Number, got, err)
			}
		}
		for _, tk := range []model.Ticket{passed, waiting} {
			if _, err := s.ClaimPrint(ctx, tk.ID, k, "ok"); err != nil {
				t.Fatalf("claim of %s: %v", tk.Number, err)
			}
		}
	})
}
