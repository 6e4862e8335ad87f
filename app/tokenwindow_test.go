package app

import (
	"context"
	"strings"
	"testing"

	"jiaohao/dao/peer"
	"jiaohao/model"
	"jiaohao/screens"
)

// A window screen's token is bound to its window: the PC set up for that
// window connects, one set up for another window is refused in a
// sentence, before it shows another window's number.
func TestTokenBoundToItsWindow(t *testing.T) {
	url, _, st := kioskPrintHost(t)
	tok, hash, err := peer.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	adder := st.(interface {
		AddTerminal(context.Context, model.Terminal) (model.Terminal, error)
	})
	if _, err := adder.AddTerminal(context.Background(), model.Terminal{Name: "window 3 screen", Role: model.RoleCounter, Window: 3, TokenHash: hash}); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Role: model.RoleCounter, Mode: screens.ModePeer, Peer: url, Token: tok, Window: 5, Lang: "zh"}
	if be, err := connect(context.Background(), cfg, t.Logf); model.ErrorCode(err) != model.EInvalidInput || !strings.Contains(model.ErrorMessage(err), "3 号窗口") {
		if be != nil {
			be.close()
		}
		t.Fatalf("window 3's token as window 5: %v, want a refusal naming window 3", err)
	}
	cfg.Window = 3
	be, err := connect(context.Background(), cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	be.close()
}
