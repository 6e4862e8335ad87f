package daotest

import (
	"context"
	"testing"

	"jiaohao/model"
)

// AreaStore is what MoveToNewArea needs of a store: its areas and its
// services.
type AreaStore interface {
	model.Areas
	model.Config
}

// MoveToNewArea adds area a and moves service code into it: the branch
// then has two areas, as the tests of what each area sees need.
func MoveToNewArea(t testing.TB, st AreaStore, code string, a model.Area) model.Area {
	t.Helper()
	ctx := context.Background()
	a, err := st.SaveArea(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := st.Services(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range svc {
		if v.Code == code {
			v.Area = a.ID
			if _, err := st.SaveService(ctx, v); err != nil {
				t.Fatal(err)
			}
			return a
		}
	}
	t.Fatalf("no service %s to move into %s", code, a.Name)
	return a
}
