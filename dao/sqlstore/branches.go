package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"gorm.io/gorm"

	"jiaohao/model"
)

// OpenBranch connects to dsn like Open and returns the Store of the branch
// with code. An empty code means the database's only branch, so a site of
// one branch never names it; with several it is one sentence listing the
// codes to choose from.
func OpenBranch(ctx context.Context, dsn, code string) (*GormStore, error) {
	s, err := Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	b, err := s.pick(ctx, code)
	if err != nil {
		s.Close()
		return nil, err
	}
	if b.ID == s.branchID {
		return s, nil
	}
	// Nothing has used the store yet (no watch, no cached codes): it turns
	// into the branch's own and keeps the pool.
	s.branchID = b.ID
	if err := s.prepareBranch(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("preparing branch %s: %w", b.Code, err)
	}
	if err := s.loadBranch(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Branch is the Store of another branch of the same database, sharing this
// Store's connection pool: a process serving many branches holds one
// bounded pool, not one per branch. Closing it stops its own watch and
// leaves the pool to this Store.
func (s *GormStore) Branch(ctx context.Context, code string) (*GormStore, error) {
	b, err := s.branchByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	return s.sibling(ctx, b.ID)
}

// BranchByID is Branch for a branch known by its row id (a terminal's).
func (s *GormStore) BranchByID(ctx context.Context, id int64) (*GormStore, error) {
	if id == s.branchID {
		return s.sibling(ctx, id)
	}
	var n int64
	if err := s.db.WithContext(ctx).Model(&branchRow{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return nil, s.wrap(err)
	}
	if n == 0 {
		return nil, model.Errorf(model.ENotFound, "没有编号为 %d 的网点 (no such branch)", id)
	}
	return s.sibling(ctx, id)
}

func (s *GormStore) sibling(ctx context.Context, id int64) (*GormStore, error) {
	b := &GormStore{db: s.db, d: s.d, branchID: id, writers: s.writers, file: s.file, sharedPool: true, watch: s.watch}
	b.health.secret, b.health.closed, b.health.log = s.health.secret, make(chan struct{}), s.health.log
	b.inFlight = s.inFlight // the same branch: the same bound
	if id != s.branchID {
		b.inFlight = b.newInFlight()
	}
	if err := b.loadBranch(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// BranchCode is the code of the branch this Store serves.
func (s *GormStore) BranchCode(ctx context.Context) (string, error) {
	var codes []string
	if err := s.db.WithContext(ctx).Model(&branchRow{}).Where("id = ?", s.branchID).Pluck("code", &codes).Error; err != nil {
		return "", s.wrap(err)
	}
	if len(codes) == 0 {
		return "", model.Errorf(model.ENotFound, "没有编号为 %d 的网点 (no such branch)", s.branchID)
	}
	return codes[0], nil
}

// Branches lists every branch of the database by code.
func (s *GormStore) Branches(ctx context.Context) ([]model.BranchInfo, error) {
	var rows []branchRow
	if err := s.db.WithContext(ctx).Order("code").Find(&rows).Error; err != nil {
		return nil, s.wrap(err)
	}
	out := make([]model.BranchInfo, len(rows))
	for i, r := range rows {
		out[i] = r.info()
	}
	return out, nil
}

func (r branchRow) info() model.BranchInfo {
	return model.BranchInfo{ID: r.ID, Code: r.Code, Name: r.Name, TimeZone: r.TimeZone}
}

// pick is the branch of code, or the only branch when code is empty.
func (s *GormStore) pick(ctx context.Context, code string) (model.BranchInfo, error) {
	if strings.TrimSpace(code) != "" {
		return s.branchByCode(ctx, code)
	}
	all, err := s.Branches(ctx)
	if err != nil {
		return model.BranchInfo{}, err
	}
	if len(all) == 1 {
		return all[0], nil
	}
	codes := make([]string, len(all))
	for i, b := range all {
		codes[i] = b.Code
	}
	return model.BranchInfo{}, model.Errorf(model.EInvalidInput,
		"数据库有 %d 个网点，请用 --branch 指定其一：%s (this database holds several branches; choose one with --branch: %s)",
		len(all), strings.Join(codes, ", "), strings.Join(codes, ", "))
}

// branchByCode finds a branch by its code, case-insensitively.
func (s *GormStore) branchByCode(ctx context.Context, code string) (model.BranchInfo, error) {
	code, err := model.NormalBranchCode(code)
	if err != nil {
		return model.BranchInfo{}, err
	}
	var rows []branchRow
	if err := s.db.WithContext(ctx).Where("code = ?", code).Limit(1).Find(&rows).Error; err != nil {
		return model.BranchInfo{}, s.wrap(err)
	}
	if len(rows) == 0 {
		return model.BranchInfo{}, errNoBranch(code)
	}
	return rows[0].info(), nil
}

func errNoBranch(code string) error {
	return model.Errorf(model.ENotFound, "没有代码为 %s 的网点，`jiaohao branch list` 列出已有网点 (no branch has the code %s; `jiaohao branch list` shows them)", code, code)
}

// addTries bounds AddBranch's attempts: branches added at once may all
// pick the next id; one wins each round and the others try the one after,
// after a random pause so they do not meet again.
const addTries = 20

// AddBranch creates a branch. With from (a code) it copies that branch's
// waiting areas, services, windows (what they serve and allow) and
// settings, so a region's branches start alike; without, it gets the
// default services and windows, as the first branch did. Nothing of
// either's queue is copied: the new branch's numbering, events and version
// start from zero.
func (s *GormStore) AddBranch(ctx context.Context, b model.BranchInfo, from string) (model.BranchInfo, error) {
	code, err := model.NormalBranchCode(b.Code)
	if err != nil {
		return b, err
	}
	if err := model.CheckBranch(b.Name, b.TimeZone); err != nil {
		return b, err
	}
	b = model.BranchInfo{Code: code, Name: strings.TrimSpace(b.Name), TimeZone: strings.TrimSpace(b.TimeZone)}
	var src model.BranchInfo
	if strings.TrimSpace(from) != "" {
		if src, err = s.branchByCode(ctx, from); err != nil {
			return b, err
		}
	}
	now, err := s.Now(ctx)
	if err != nil {
		return b, err
	}
	taken := model.Errorf(model.EConflict, "网点代码 %s 已被使用 (the branch code %s is taken)", code, code)
	for attempt := 1; ; attempt++ {
		err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			var n int64
			if err := tx.Model(&branchRow{}).Where("code = ?", code).Count(&n).Error; err != nil {
				return err
			}
			if n > 0 {
				return taken
			}
			if err := tx.Raw("SELECT COALESCE(MAX(id), 0) + 1 FROM branch").Scan(&b.ID).Error; err != nil {
				return err
			}
			err := s.d.givenID(tx, "branch", func() error {
				return tx.Exec("INSERT INTO branch (id, code, name, time_zone, version) VALUES (?, ?, ?, ?, 0)",
					b.ID, code, b.Name, b.TimeZone).Error
			})
			if err != nil {
				return err
			}
			if src.ID != 0 {
				return copyBranch(tx, src.ID, b.ID, now)
			}
			return seedBranch(s.d, tx, b.ID, now)
		})
		if err == nil || errors.Is(err, taken) {
			break
		}
		kind := s.d.errorKind(err)
		if (kind != errUnique && kind != errRetry) || ctx.Err() != nil {
			return b, s.wrap(err)
		}
		if attempt == addTries {
			return b, model.Errorf(model.EConflict, "其他网点正在同时添加，请重试 (other branches were being added at the same moment; try again)")
		}
		time.Sleep(time.Duration(rand.IntN(attempt*5000)+500) * time.Microsecond)
	}
	if err != nil {
		return b, taken
	}
	nb, err := s.sibling(ctx, b.ID)
	if err != nil {
		return b, err
	}
	defer nb.Close()
	// The default area and customer levels, as migrate gives branch 1.
	return b, s.wrap(nb.prepareBranch(ctx))
}

// TokenBranch is the branch of the terminal holding a token hash, across
// the database: what a process serving many branches routes a request by.
// The hash is unique (ux_terminal_token); a revoked or unknown one is the
// token error, as for one branch, and so is head office's, which belongs
// to no branch (hqBranch).
func (s *GormStore) TokenBranch(ctx context.Context, hash string) (int64, error) {
	var ids []int64
	if err := s.db.WithContext(ctx).Model(&terminalRow{}).Where("token_hash = ? AND revoked = ? AND branch_id <> ?", hash, false, hqBranch).Limit(1).Pluck("branch_id", &ids).Error; err != nil {
		return 0, s.wrap(err)
	}
	if len(ids) == 0 {
		return 0, model.Errorf(model.EUnauthorized, "令牌无效或已吊销 (invalid or revoked token)")
	}
	return ids[0], nil
}

// TicketBranch is the branch of the ticket behind a customer page, across
// the database (public ids are unique, ux_ticket_public).
func (s *GormStore) TicketBranch(ctx context.Context, publicID string) (int64, error) {
	notFound := model.Errorf(model.ENotFound, "没有这个号码 (unknown ticket)")
	if len(publicID) != 32 {
		return 0, notFound
	}
	var ids []int64
	if err := s.db.WithContext(ctx).Raw("SELECT branch_id FROM ticket WHERE public_id = ?", publicID).Scan(&ids).Error; err != nil {
		return 0, s.wrap(err)
	}
	if len(ids) == 0 {
		return 0, notFound
	}
	return ids[0], nil
}

// Overview is the branch's line on head office's overview: its snapshot's
// figures and how long its longest-waiting customer has waited today.
func (s *GormStore) Overview(ctx context.Context) (model.BranchOverview, error) {
	code, err := s.BranchCode(ctx)
	if err != nil {
		return model.BranchOverview{}, err
	}
	snap, err := s.Snapshot(ctx)
	if err != nil {
		return model.BranchOverview{}, err
	}
	var oldest []time.Time
	if err := s.db.WithContext(ctx).Model(&ticketRow{}).
		Where("branch_id = ? AND status = ? AND business_date = ?", s.branchID, int(model.Waiting), snap.BusinessDate).
		Order("issued_at").Limit(1).Pluck("issued_at", &oldest).Error; err != nil {
		return model.BranchOverview{}, s.wrap(err)
	}
	var since time.Time
	if len(oldest) > 0 {
		since = oldest[0]
	}
	return model.Overview(code, snap, since), nil
}
