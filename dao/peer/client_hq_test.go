package peer

import (
	"context"
	"strings"
	"testing"
	"time"

	"jiaohao/model"
)

// Head office's PC pointed at a host serving one branch (serve without
// --branch all) is told what to do there, not only "no such path", on
// dialling and on watching.
func TestHQOnOneBranchHost(t *testing.T) {
	e := newEnv(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tok := e.tokens[model.RoleHQ]
	_, err := DialHQ(ctx, e.ts.URL, tok, nil)
	if model.ErrorCode(err) != model.ENotFound || !strings.Contains(model.ErrorMessage(err), "serve --branch all") {
		t.Errorf("dialling a one-branch host: %v", err)
	}
	c, err := NewClient(e.ts.URL, tok, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.WatchOverview(ctx); model.ErrorCode(err) != model.ENotFound || !strings.Contains(model.ErrorMessage(err), "serve --branch all") {
		t.Errorf("watching a one-branch host: %v", err)
	}
}
