package sqlstore

import (
	"context"
	"strings"

	"jiaohao/model"
)

// hqBranch is the branch_id of head office's terminals (RoleSpec
// HeadOffice): no branch has it (branch ids start at 1), so every query a
// branch makes of the terminal table, which names its own id, passes over
// them, and TokenBranch finds no branch for their tokens. They share the
// table, and so the unique index on the token hash, with every branch's.
const hqBranch int64 = 0

// AddTerminal registers a PC of the branch by the hash of its token.
// Head office's tokens belong to no branch: they are added through
// HeadOffice.
func (s *GormStore) AddTerminal(ctx context.Context, t model.Terminal) (model.Terminal, error) {
	if spec, _ := t.Role.Spec(); spec.HeadOffice {
		return t, model.Errorf(model.EInvalidInput, "总部令牌不属于任何网点，请用 jiaohao token add --role %s 添加 (a head-office token belongs to no branch; add it with jiaohao token add --role %s)", t.Role, t.Role)
	}
	return s.addTerminal(ctx, s.branchID, t)
}

func (s *GormStore) addTerminal(ctx context.Context, branch int64, t model.Terminal) (model.Terminal, error) {
	t.Name = strings.TrimSpace(t.Name)
	spec, known := t.Role.Spec()
	switch {
	case !known:
		return t, model.Errorf(model.EInvalidInput, "角色须为 %s，收到 %q", model.RoleNames("、", " 或 "), t.Role)
	case spec.Window && t.Window < 1:
		return t, model.Errorf(model.EInvalidInput, "窗口端须指定窗口号 (--window)")
	case len(t.TokenHash) != 64:
		return t, model.Errorf(model.EInvalidInput, "令牌哈希无效")
	}
	if err := model.CheckTerminalName(t.Name); err != nil {
		return t, err
	}
	if spec.Window {
		if _, err := s.read(ctx).window(t.Window); err != nil {
			return t, err
		}
	}
	now, err := s.Now(ctx)
	if err != nil {
		return t, err
	}
	row := terminalRow{BranchID: branch, Name: t.Name, Role: string(t.Role), WindowNo: t.Window, TokenHash: t.TokenHash, CreatedAt: now}
	if err := s.db.WithContext(ctx).Create(&row).Error; err != nil {
		if s.d.errorKind(err) == errUnique {
			return t, model.Errorf(model.EConflict, "这个令牌已经登记过 (this token is already registered)")
		}
		return t, s.wrap(err)
	}
	return row.toTerminal(), nil
}

func (r terminalRow) toTerminal() model.Terminal {
	return model.Terminal{ID: r.ID, Name: r.Name, Role: model.Role(r.Role), Window: r.WindowNo, TokenHash: r.TokenHash,
		CreatedAt: r.CreatedAt.UTC(), LastSeen: utcPtr(r.LastSeen), Revoked: r.Revoked}
}

// Terminals lists the branch's registered PCs, revoked ones included.
func (s *GormStore) Terminals(ctx context.Context) ([]model.Terminal, error) {
	return s.terminals(ctx, s.branchID)
}

func (s *GormStore) terminals(ctx context.Context, branch int64) ([]model.Terminal, error) {
	var rows []terminalRow
	if err := s.db.WithContext(ctx).Where("branch_id = ?", branch).Order("id").Find(&rows).Error; err != nil {
		return nil, s.wrap(err)
	}
	out := make([]model.Terminal, len(rows))
	for i, r := range rows {
		out[i] = r.toTerminal()
	}
	return out, nil
}

// RevokeTerminal stops a token from working; the row stays for the record.
func (s *GormStore) RevokeTerminal(ctx context.Context, id int64) error {
	return s.revokeTerminal(ctx, s.branchID, id)
}

func (s *GormStore) revokeTerminal(ctx context.Context, branch, id int64) error {
	res := s.db.WithContext(ctx).Model(&terminalRow{}).Where("branch_id = ? AND id = ?", branch, id).Update("revoked", true)
	if res.Error != nil {
		return s.wrap(res.Error)
	}
	if res.RowsAffected == 0 {
		return model.Errorf(model.ENotFound, "没有编号为 %d 的终端", id)
	}
	return nil
}

// TerminalByTokenHash finds an active terminal of the branch by its token
// hash.
func (s *GormStore) TerminalByTokenHash(ctx context.Context, hash string) (model.Terminal, error) {
	return s.terminalByTokenHash(ctx, s.branchID, hash)
}

func (s *GormStore) terminalByTokenHash(ctx context.Context, branch int64, hash string) (model.Terminal, error) {
	var rows []terminalRow
	if err := s.db.WithContext(ctx).Where("branch_id = ? AND token_hash = ? AND revoked = ?", branch, hash, false).Limit(1).Find(&rows).Error; err != nil {
		return model.Terminal{}, s.wrap(err)
	}
	if len(rows) == 0 {
		return model.Terminal{}, model.Errorf(model.EUnauthorized, "令牌无效或已吊销 (invalid or revoked token)")
	}
	return rows[0].toTerminal(), nil
}

// TouchTerminal records that a terminal was just seen.
func (s *GormStore) TouchTerminal(ctx context.Context, id int64) error {
	return s.touchTerminal(ctx, s.branchID, id)
}

func (s *GormStore) touchTerminal(ctx context.Context, branch, id int64) error {
	now, err := s.Now(ctx)
	if err != nil {
		return err
	}
	return s.wrap(s.db.WithContext(ctx).Model(&terminalRow{}).Where("branch_id = ? AND id = ?", branch, id).Update("last_seen", now).Error)
}
