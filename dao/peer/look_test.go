package peer

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// The branch colours and logo go through the peer API as they go through
// the database: the manager sets them, every PC reads them back, and a
// low-contrast pair or a broken image is one sentence that changes nothing.
func TestBranchLookOverThePeerAPI(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) { branchLookOverThePeerAPI(t, newEnvOn(t, st, Options{})) })
}

func branchLookOverThePeerAPI(t *testing.T, e *env) {
	ctx := context.Background()
	mgr, screen := e.client(t, model.RoleManager), e.client(t, model.RoleScreen)

	const colors = "background=#ffffff&number=#0b5cad&highlight=#ffd54f&text=#000000"
	if err := mgr.SetSetting(ctx, "colors", colors); err != nil {
		t.Fatal(err)
	}
	st, err := screen.Settings(ctx)
	if err != nil || st.Raw["colors"] != colors || !st.Look.Set || model.HexColor(st.Look.Number) != "#0b5cad" {
		t.Fatalf("a screen reads colors %q as %+v (%v)", st.Raw["colors"], st.Look, err)
	}
	before := e.version(t)
	err = mgr.SetSetting(ctx, "colors", "background=#ffffff&number=#aaaaaa&text=#000000")
	if !model.IsCode(err, model.ELowContrast) || model.ErrorMessage(err) == "" {
		t.Fatalf("a pale number on white through the API = %v, want %s with a sentence", err, model.ELowContrast)
	}
	if st, _ := e.store.Settings(ctx); st.Raw["colors"] != colors || e.version(t) != before {
		t.Fatalf("the refusal changed the store: colors %q, version %d -> %d", st.Raw["colors"], before, e.version(t))
	}

	logo := daotest.LogoPNG(t, 400, 160)
	if len(logo) <= MaxBody {
		t.Fatalf("the test logo is %d bytes: it must exceed the 64 KiB of other requests", len(logo))
	}
	if err := mgr.SetLogo(ctx, logo); err != nil {
		t.Fatal(err)
	}
	got, err := screen.Logo(ctx)
	if err != nil || !bytes.Equal(got, logo) {
		t.Fatalf("a screen read %d bytes (%v), want the %d stored", len(got), err, len(logo))
	}
	if direct, _ := e.store.Logo(ctx); !bytes.Equal(direct, logo) {
		t.Fatal("a PC on the database does not see the logo set through the host")
	}
	if err := mgr.SetLogo(ctx, logo[:len(logo)-100]); !model.IsCode(err, model.EInvalidInput) {
		t.Fatalf("a truncated PNG through the API = %v, want %s", err, model.EInvalidInput)
	}
	if err := screen.SetLogo(ctx, nil); !model.IsCode(err, model.EForbidden) {
		t.Fatalf("a hall screen removed the logo: %v", err)
	}
	// Far over the bound: refused before it is decoded.
	huge := `{"data":"` + base64.StdEncoding.EncodeToString(make([]byte, model.MaxLogoBytes+4096)) + `"}`
	status, body := e.call(t, "PUT", "/api/v1/logo", e.tokens[model.RoleManager], huge)
	if status != http.StatusBadRequest || errCode(t, body) != model.EInvalidInput {
		t.Fatalf("an oversized logo: %d %s", status, body)
	}
	if got, _ := screen.Logo(ctx); !bytes.Equal(got, logo) {
		t.Fatal("a refused logo replaced the stored one")
	}
	if err := mgr.SetLogo(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := screen.Logo(ctx); err != nil || got != nil {
		t.Fatalf("after removal a screen reads %d bytes (%v)", len(got), err)
	}
}
