package app

import (
	"context"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// overviewOnce is head office's overview read once from a database: every
// branch's line, then nothing more. The screenshot shows the hq screen on
// the demo branch with it; a head-office PC follows a host instead
// (connectHQ), which shares one feed among all of them.
type overviewOnce struct{ gs *sqlstore.GormStore }

func (o overviewOnce) WatchOverview(ctx context.Context) (<-chan model.OverviewUpdate, error) {
	all, err := o.gs.Branches(ctx)
	if err != nil {
		return nil, err
	}
	lines := make([]model.BranchOverview, 0, len(all))
	for _, b := range all {
		bs, err := o.gs.BranchByID(ctx, b.ID)
		if err != nil {
			return nil, err
		}
		line, err := bs.Overview(ctx)
		bs.Close()
		if err != nil {
			return nil, err
		}
		lines = append(lines, line)
	}
	ch := make(chan model.OverviewUpdate, 1)
	ch <- model.OverviewUpdate{Full: true, Lines: lines}
	go func() { <-ctx.Done(); close(ch) }()
	return ch, nil
}
