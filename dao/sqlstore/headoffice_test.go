package sqlstore_test

import (
	"context"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Head office's tokens belong to no branch: added through HeadOffice they
// are listed, found and revoked there only; no branch lists or finds
// them, TokenBranch routes them to no branch, a branch refuses to add one,
// and head office refuses any other role. They share the unique token
// index with the branches' own.
func TestHeadOfficeTokens(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		_, err := s.AddBranch(bg, model.BranchInfo{Code: "BJ001", Name: "北京分行", TimeZone: "Asia/Shanghai"}, "")
		okAny(t, err)
		b2, err := s.Branch(bg, "BJ001")
		okAny(t, err)
		defer b2.Close()
		hq := s.HeadOffice()
		hash := strings.Repeat("a1", 32)
		term, err := hq.AddTerminal(bg, model.Terminal{Name: "总部大屏", Role: model.RoleHQ, TokenHash: hash})
		okAny(t, err)
		if got, err := hq.TerminalByTokenHash(bg, hash); err != nil || got.ID != term.ID || got.Role != model.RoleHQ {
			t.Fatalf("head office's own lookup: %+v %v", got, err)
		}
		for _, b := range []interface {
			TerminalByTokenHash(ctx context.Context, hash string) (model.Terminal, error)
		}{s, b2} {
			if _, err := b.TerminalByTokenHash(bg, hash); model.ErrorCode(err) != model.EUnauthorized {
				t.Errorf("a branch found head office's token: %v", err)
			}
		}
		if _, err := s.TokenBranch(bg, hash); model.ErrorCode(err) != model.EUnauthorized {
			t.Errorf("TokenBranch of head office's token: %v, want unauthorized", err)
		}
		for _, b := range []interface {
			Terminals(ctx context.Context) ([]model.Terminal, error)
		}{s, b2} {
			ts, err := b.Terminals(bg)
			okAny(t, err)
			if len(ts) != 0 {
				t.Errorf("a branch lists head office's token: %+v", ts)
			}
		}
		if ts, err := hq.Terminals(bg); err != nil || len(ts) != 1 || ts[0].ID != term.ID {
			t.Fatalf("head office's list: %+v %v", ts, err)
		}
		if _, err := s.AddTerminal(bg, model.Terminal{Name: "hq", Role: model.RoleHQ, TokenHash: strings.Repeat("b2", 32)}); model.ErrorCode(err) != model.EInvalidInput {
			t.Errorf("a branch adding an hq token: %v, want invalid input", err)
		}
		if _, err := hq.AddTerminal(bg, model.Terminal{Name: "m", Role: model.RoleManager, TokenHash: strings.Repeat("c3", 32)}); model.ErrorCode(err) != model.EInvalidInput {
			t.Errorf("head office adding a manager: %v, want invalid input", err)
		}
		if _, err := b2.AddTerminal(bg, model.Terminal{Name: "k", Role: model.RoleKiosk, TokenHash: hash}); model.ErrorCode(err) != model.EConflict {
			t.Errorf("a branch token with head office's hash: %v, want conflict", err)
		}
		// A branch cannot revoke it; head office can, and then it is no token.
		if err := b2.RevokeTerminal(bg, term.ID); model.ErrorCode(err) != model.ENotFound {
			t.Errorf("a branch revoking head office's token: %v, want not found", err)
		}
		okAny(t, hq.TouchTerminal(bg, term.ID))
		okAny(t, hq.RevokeTerminal(bg, term.ID))
		if _, err := hq.TerminalByTokenHash(bg, hash); model.ErrorCode(err) != model.EUnauthorized {
			t.Errorf("a revoked hq token: %v, want unauthorized", err)
		}
		if ts, _ := hq.Terminals(bg); len(ts) != 1 || !ts[0].Revoked || ts[0].LastSeen == nil {
			t.Errorf("head office's list after revoking: %+v", ts)
		}
	})
}
