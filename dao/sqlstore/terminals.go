package sqlstore

import (
	"context"
	"strings"

	"jiaohao/model"
)

// AddTerminal registers a PC by the hash of its token.
func (s *GormStore) AddTerminal(ctx context.Context, t model.Terminal) (model.Terminal, error) {
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
	row := terminalRow{BranchID: s.branchID, Name: t.Name, Role: string(t.Role), WindowNo: t.Window, TokenHash: t.TokenHash, CreatedAt: now}
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

// Terminals lists registered PCs, revoked ones included.
func (s *GormStore) Terminals(ctx context.Context) ([]model.Terminal, error) {
	var rows []terminalRow
	if err := s.db.WithContext(ctx).Where("branch_id = ?", s.branchID).Order("id").Find(&rows).Error; err != nil {
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
	res := s.db.WithContext(ctx).Model(&terminalRow{}).Where("branch_id = ? AND id = ?", s.branchID, id).Update("revoked", true)
	if res.Error != nil {
		return s.wrap(res.Error)
	}
	if res.RowsAffected == 0 {
		return model.Errorf(model.ENotFound, "没有编号为 %d 的终端", id)
	}
	return nil
}

// TerminalByTokenHash finds an active terminal by its token hash.
func (s *GormStore) TerminalByTokenHash(ctx context.Context, hash string) (model.Terminal, error) {
	var rows []terminalRow
	if err := s.db.WithContext(ctx).Where("branch_id = ? AND token_hash = ? AND revoked = ?", s.branchID, hash, false).Limit(1).Find(&rows).Error; err != nil {
		return model.Terminal{}, s.wrap(err)
	}
	if len(rows) == 0 {
		return model.Terminal{}, model.Errorf(model.EUnauthorized, "令牌无效或已吊销 (invalid or revoked token)")
	}
	return rows[0].toTerminal(), nil
}

// TouchTerminal records that a terminal was just seen.
func (s *GormStore) TouchTerminal(ctx context.Context, id int64) error {
	now, err := s.Now(ctx)
	if err != nil {
		return err
	}
	return s.wrap(s.db.WithContext(ctx).Model(&terminalRow{}).Where("branch_id = ? AND id = ?", s.branchID, id).Update("last_seen", now).Error)
}
