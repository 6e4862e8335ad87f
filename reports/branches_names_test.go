package reports_test

import (
	"context"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/model"
	"jiaohao/reports"
)

// TestBranchesTotalKeepsServicesOfOneCodeAndTwoNamesApart: a branch that
// renamed its service A to another business is another service; adding it
// to the other branches' A under their name would give A figures that are
// none of theirs. Services of one code and one name add up.
func TestBranchesTotalKeepsServicesOfOneCodeAndTwoNamesApart(t *testing.T) {
	ctx := context.Background()
	st := daotest.SQLite(t)
	if _, err := st.AddBranch(ctx, model.BranchInfo{Code: "SH001", Name: "上海分行", TimeZone: "Asia/Shanghai"}, ""); err != nil {
		t.Fatal(err)
	}
	sh, err := st.Branch(ctx, "SH001")
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	svcs, err := sh.Services(ctx)
	if err != nil || len(svcs) < 2 {
		t.Fatalf("services %v, %v", svcs, err)
	}
	renamed := svcs[0]
	renamed.Name = "对公业务（更名）"
	if _, err := sh.SaveService(ctx, renamed); err != nil {
		t.Fatal(err)
	}
	seed(t, st, seededDay, 60)
	seed(t, sh, seededDay, 50)
	own := map[string]reports.Report{"B001": generate(t, st, seededDay, seededDay), "SH001": generate(t, sh, seededDay, seededDay)}
	bs := []reports.BranchSource{{Code: "B001", Src: st}, {Code: "SH001", Src: sh}}
	r, err := reports.GenerateBranches(ctx, bs, seededDay, seededDay, reports.Options{Now: closedAt(sh, seededDay)})
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ code, name string }
	want := map[key]int{}
	for _, b := range []string{"B001", "SH001"} {
		for _, s := range own[b].Services {
			want[key{s.Code, s.Name}] += s.Count
		}
	}
	got := map[key]int{}
	for _, s := range r.Total.Services {
		got[key{s.Code, s.Name}] += s.Count
	}
	if len(got) != len(want) || len(r.Total.Services) != len(want) {
		t.Errorf("total services %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("service %s %s: total %d, branches %d", k.code, k.name, got[k], n)
		}
	}
	if s := r.Total.Satisfaction; s.Kept {
		sat := map[key]int{}
		for _, x := range s.Services {
			sat[key{x.Key, x.Name}] += x.Served
		}
		for _, b := range []string{"B001", "SH001"} {
			for _, x := range own[b].Satisfaction.Services {
				sat[key{x.Key, x.Name}] -= x.Served
			}
		}
		for k, n := range sat {
			if n != 0 {
				t.Errorf("satisfaction of %s %s: total off by %d", k.code, k.name, n)
			}
		}
	}
}
