package sqlstore_test

import (
	"bytes"
	"image/color"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

func TestBranchLookRoundTripsAndLowContrastChangesNothing(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		const colors = "background=#ffffff&number=#0b5cad&highlight=#ffd54f&text=#000000"
		okAny(t, s.SetSetting(bg, "colors", colors))
		st := val(s.Settings(bg))(t)
		want := model.Look{Set: true, Background: color.NRGBA{0xff, 0xff, 0xff, 0xff}, Number: color.NRGBA{0x0b, 0x5c, 0xad, 0xff},
			Highlight: color.NRGBA{0xff, 0xd5, 0x4f, 0xff}, Text: color.NRGBA{0, 0, 0, 0xff}}
		if st.Raw["colors"] != colors || st.Look != want {
			t.Fatalf("colors read back %q as %+v", st.Raw["colors"], st.Look)
		}

		before := val(s.Snapshot(bg))(t).Version
		err := s.SetSetting(bg, "colors", "background=#ffffff&number=#999999&text=#000000")
		if !model.IsCode(err, model.ELowContrast) {
			t.Fatalf("a grey number on white = %v, want %s", err, model.ELowContrast)
		}
		if got := val(s.Settings(bg))(t).Raw["colors"]; got != colors {
			t.Fatalf("after the refusal colors = %q, want it unchanged", got)
		}
		if v := val(s.Snapshot(bg))(t).Version; v != before {
			t.Fatalf("the refusal wrote events: version %d -> %d", before, v)
		}

		if got := val(s.Logo(bg))(t); got != nil {
			t.Fatalf("a fresh branch has a logo of %d bytes", len(got))
		}
		logo := daotest.LogoPNG(t, 300, 120)
		if len(logo) <= 1<<16 {
			t.Fatalf("the test logo is %d bytes: it must not fit a 64 KiB column", len(logo))
		}
		okAny(t, s.SetLogo(bg, logo))
		if got := val(s.Logo(bg))(t); !bytes.Equal(got, logo) {
			t.Fatalf("logo read back %d bytes, want the %d stored", len(got), len(logo))
		}
		evs := val(s.EventsSince(bg, before, 10))(t)
		if len(evs) != 1 || evs[0].Kind != model.EvConfig {
			t.Fatalf("setting the logo wrote %+v, want one configuration event for the screens to reload", evs)
		}
		bad := append([]byte{}, logo[:len(logo)/2]...)
		if err := s.SetLogo(bg, bad); !model.IsCode(err, model.EInvalidInput) {
			t.Fatalf("a truncated PNG = %v, want %s", err, model.EInvalidInput)
		}
		if got := val(s.Logo(bg))(t); !bytes.Equal(got, logo) {
			t.Fatal("a refused logo replaced the stored one")
		}
		okAny(t, s.SetLogo(bg, nil))
		if got := val(s.Logo(bg))(t); got != nil {
			t.Fatalf("a removed logo still reads %d bytes", len(got))
		}
	})
}

// val is ok for any value: val(f())(t).
func val[T any](v T, err error) func(*testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
