package sqlstore_test

import (
	"context"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A token hash registers once: the second time is a conflict in one
// sentence, on every engine, and adds nothing. Revoking keeps the row.
func TestTerminalRegisteredOnce(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		ctx := context.Background()
		hash := strings.Repeat("5e", 32)
		first, err := s.AddTerminal(ctx, model.Terminal{Name: "kiosk", Role: "kiosk", TokenHash: hash})
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.AddTerminal(ctx, model.Terminal{Name: "again", Role: "screen", TokenHash: hash})
		if !model.IsCode(err, model.EConflict) {
			t.Fatalf("the same token twice: %v, want conflict", err)
		}
		if err := s.RevokeTerminal(ctx, first.ID); err != nil {
			t.Fatal(err)
		}
		ts, err := s.Terminals(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(ts) != 1 || ts[0].Name != "kiosk" || !ts[0].Revoked {
			t.Fatalf("terminals %+v, want the one kiosk, revoked", ts)
		}
		if _, err := s.TerminalByTokenHash(ctx, hash); !model.IsCode(err, model.EUnauthorized) {
			t.Fatalf("a revoked token still authenticates: %v", err)
		}
	})
}
