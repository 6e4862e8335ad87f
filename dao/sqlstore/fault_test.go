package sqlstore_test

import (
	"context"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Every public method of the Store and of Terminals, the lookups behind
// authentication included, answers a lost database with unavailable and
// one sentence: never internal, never the driver's words.
func TestLostDatabaseIsUnavailableEverywhere(t *testing.T) {
	for _, e := range []struct{ name, env string }{{"postgres", daotest.EnvPostgres}, {"mysql", daotest.EnvMySQL}} {
		t.Run(e.name, func(t *testing.T) {
			dsn := daotest.ServerDSN(t, e.env)
			u, _ := url.Parse(dsn)
			proxy := daotest.NewProxy(t, u.Host)
			s, err := sqlstore.Open(bg, proxy.Via(dsn))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			tk := take(t, s, "A", 0)
			term, err := s.AddTerminal(bg, model.Terminal{Name: "k", Role: "kiosk", TokenHash: strings.Repeat("ab", 32)})
			if err != nil {
				t.Fatal(err)
			}
			proxy.Cut()
			assertAllUnavailable(t, s, tk, term)
			if !s.Down() {
				t.Fatal("the store does not know its database is down")
			}
			proxy.Restore()
			deadline := time.Now().Add(20 * time.Second)
			for s.Down() {
				if time.Now().After(deadline) {
					t.Fatal("the store never noticed its database came back")
				}
				time.Sleep(100 * time.Millisecond)
			}
			take(t, s, "A", 0)
		})
	}
}

func assertAllUnavailable(t *testing.T, s *sqlstore.GormStore, tk model.Ticket, term model.Terminal) {
	t.Helper()
	id := tk.ID
	calls := map[string]func(ctx context.Context) error{
		"TakeTicket":   func(ctx context.Context) error { _, err := s.TakeTicket(ctx, "A", 0, "k"); return err },
		"CallNext":     func(ctx context.Context) error { _, err := s.CallNext(ctx, 1, ""); return err },
		"Recall":       func(ctx context.Context) error { _, err := s.Recall(ctx, id, 1); return err },
		"Pass":         func(ctx context.Context) error { _, err := s.Pass(ctx, id, 1); return err },
		"UndoPass":     func(ctx context.Context) error { _, err := s.UndoPass(ctx, id, 1); return err },
		"Requeue":      func(ctx context.Context) error { _, err := s.Requeue(ctx, id, 1); return err },
		"StartServing": func(ctx context.Context) error { _, err := s.StartServing(ctx, id, 1); return err },
		"Finish":       func(ctx context.Context) error { _, err := s.Finish(ctx, id, 1); return err },
		"Cancel":       func(ctx context.Context) error { _, err := s.Cancel(ctx, id, 1); return err },
		"Transfer": func(ctx context.Context) error {
			_, err := s.Transfer(ctx, id, 1, model.TransferTarget{Service: "B"})
			return err
		},
		"Ticket":           func(ctx context.Context) error { _, err := s.Ticket(ctx, id); return err },
		"TicketByPublicID": func(ctx context.Context) error { _, err := s.TicketByPublicID(ctx, tk.PublicID); return err },
		"Position":         func(ctx context.Context) error { _, err := s.Position(ctx, id); return err },
		"AckAlert":         func(ctx context.Context) error { _, err := s.AckAlert(ctx, 1); return err },
		"SetWindowStatus":  func(ctx context.Context) error { _, err := s.SetWindowStatus(ctx, 1, model.WindowOpen); return err },
		"SetWindowServices": func(ctx context.Context) error {
			_, err := s.SetWindowServices(ctx, 1, []string{"A"})
			return err
		},
		"SwitchServices": func(ctx context.Context) error {
			_, err := s.SwitchServices(ctx, 1, []string{"A"})
			return err
		},
		"Windows": func(ctx context.Context) error { _, err := s.Windows(ctx); return err },
		"SaveWindow": func(ctx context.Context) error {
			_, err := s.SaveWindow(ctx, model.Window{Number: 1, Name: "1号窗口"})
			return err
		},
		"Services": func(ctx context.Context) error { _, err := s.Services(ctx); return err },
		"SaveService": func(ctx context.Context) error {
			_, err := s.SaveService(ctx, model.Service{Code: "A", Name: "个人业务", Priority: 5, StartNo: 1, Enabled: true})
			return err
		},
		"Settings":    func(ctx context.Context) error { _, err := s.Settings(ctx); return err },
		"SetSetting":  func(ctx context.Context) error { return s.SetSetting(ctx, "notice", "x") },
		"SetBranch":   func(ctx context.Context) error { return s.SetBranch(ctx, "网点", "Asia/Shanghai") },
		"Snapshot":    func(ctx context.Context) error { _, err := s.Snapshot(ctx); return err },
		"EventsSince": func(ctx context.Context) error { _, err := s.EventsSince(ctx, 0, 10); return err },
		"Sweep":       func(ctx context.Context) error { _, err := s.Sweep(ctx); return err },
		"Watch":       func(ctx context.Context) error { _, err := s.Watch(ctx, 0); return err },
		"ReportDevice": func(ctx context.Context) error {
			return s.ReportDevice(ctx, "printer", "")
		},
		"Now": func(ctx context.Context) error {
			if _, err := s.Now(ctx); err != nil {
				return err
			}
			return model.Errorf(model.EUnavailable, "时钟 (the clock is carried forward between readings; an answer is fine)")
		},
		"AddTerminal": func(ctx context.Context) error {
			_, err := s.AddTerminal(ctx, model.Terminal{Role: "screen", TokenHash: strings.Repeat("cd", 32)})
			return err
		},
		"Terminals":           func(ctx context.Context) error { _, err := s.Terminals(ctx); return err },
		"RevokeTerminal":      func(ctx context.Context) error { return s.RevokeTerminal(ctx, term.ID) },
		"TerminalByTokenHash": func(ctx context.Context) error { _, err := s.TerminalByTokenHash(ctx, term.TokenHash); return err },
		"TouchTerminal":       func(ctx context.Context) error { return s.TouchTerminal(ctx, term.ID) },
		"Probe":               func(ctx context.Context) error { _, err := s.Probe(ctx); return err },
		"Archive":             func(ctx context.Context) error { _, err := s.Archive(ctx, "2000-01-01", 10); return err },
		"CountIssued": func(ctx context.Context) error {
			_, err := s.CountIssued(ctx, time.Now().Add(-time.Hour), time.Now())
			return err
		},
	}
	// The table must cover every method of both interfaces.
	for _, it := range []reflect.Type{reflect.TypeOf((*model.Store)(nil)).Elem(), reflect.TypeOf((*model.Terminals)(nil)).Elem()} {
		for i := 0; i < it.NumMethod(); i++ {
			name := it.Method(i).Name
			if _, ok := calls[name]; !ok && name != "Engine" && name != "Close" {
				t.Errorf("%s.%s is not checked", it.Name(), name)
			}
		}
	}
	for name, call := range calls {
		ctx, cancel := context.WithTimeout(bg, 20*time.Second)
		err := call(ctx)
		cancel()
		if model.ErrorCode(err) != model.EUnavailable {
			t.Errorf("%s with the database gone: %v (code %q), want unavailable", name, err, model.ErrorCode(err))
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "(") {
			t.Errorf("%s: message %q is not one sentence in both languages", name, msg)
		}
	}
}
