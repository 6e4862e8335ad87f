package sqlstore

import (
	"context"

	"jiaohao/model"
)

// HeadOffice is the register of head office's tokens (the hq role): rows
// of the terminal table under hqBranch, which no branch reads. A process
// serving every branch authenticates head office's PCs through it; the
// command line issues, lists and revokes them through it without naming a
// branch.
func (s *GormStore) HeadOffice() model.Terminals { return headOffice{s} }

type headOffice struct{ s *GormStore }

// AddTerminal registers a head-office PC; only a role that belongs to no
// branch may be one.
func (h headOffice) AddTerminal(ctx context.Context, t model.Terminal) (model.Terminal, error) {
	if spec, ok := t.Role.Spec(); !ok || !spec.HeadOffice {
		return t, model.Errorf(model.EInvalidInput, "总部令牌的角色须为 %s，收到 %q (a head-office token's role must be %s)", model.RoleHQ, t.Role, model.RoleHQ)
	}
	return h.s.addTerminal(ctx, hqBranch, t)
}

func (h headOffice) Terminals(ctx context.Context) ([]model.Terminal, error) {
	return h.s.terminals(ctx, hqBranch)
}

func (h headOffice) RevokeTerminal(ctx context.Context, id int64) error {
	return h.s.revokeTerminal(ctx, hqBranch, id)
}

func (h headOffice) TerminalByTokenHash(ctx context.Context, hash string) (model.Terminal, error) {
	return h.s.terminalByTokenHash(ctx, hqBranch, hash)
}

func (h headOffice) TouchTerminal(ctx context.Context, id int64) error {
	return h.s.touchTerminal(ctx, hqBranch, id)
}
