package sqlstore_test

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A database of one branch: it has the code B001 and every command finds
// it with no code given. Branches are added by code, with the default
// services and windows or a copy of another branch's configuration; bad
// codes, taken codes and unknown branches are one sentence each and change
// nothing; with two branches an empty code asks for one, listing them.
func TestBranchAddListPick(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		s, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		defer s.Close()
		all, err := s.Branches(bg)
		okAny(t, err)
		if len(all) != 1 || all[0].Code != "B001" || all[0].ID != 1 {
			t.Fatalf("a fresh database's branches: %+v, want B001 alone", all)
		}
		only, err := sqlstore.OpenBranch(bg, dsn, "")
		okAny(t, err)
		if only.BranchID() != 1 {
			t.Fatalf("no code on one branch opened branch %d", only.BranchID())
		}
		only.Close()

		// Branch 1's configuration, to be copied.
		okAny(t, s.SetSetting(bg, "notice", "请保管好随身物品"))
		okAny(t, s.SetSetting(bg, "call_timeout_s", "300"))
		area, err := s.SaveArea(bg, model.Area{Name: "二楼贵宾区", Where: "二楼"})
		okAny(t, err)
		_, err = s.SaveService(bg, model.Service{Code: "C", Name: "外汇", Priority: 5, StartNo: 500, Enabled: true, SortOrder: 4, Area: area.ID})
		okAny(t, err)
		_, err = s.SaveWindow(bg, model.Window{Number: 7, Name: "外汇窗口", Services: []string{"C"}})
		okAny(t, err)

		for _, bad := range []model.BranchInfo{
			{Code: "北京01", Name: "北京分行", TimeZone: "Asia/Shanghai"},
			{Code: "", Name: "北京分行", TimeZone: "Asia/Shanghai"},
			{Code: "-BJ", Name: "北京分行", TimeZone: "Asia/Shanghai"},
			{Code: "BJ001", Name: " ", TimeZone: "Asia/Shanghai"},
			{Code: "BJ001", Name: "北京分行", TimeZone: "Mars/Olympus"},
		} {
			if _, err := s.AddBranch(bg, bad, ""); model.ErrorCode(err) != model.EInvalidInput {
				t.Fatalf("add %+v: %v, want invalid input", bad, err)
			}
		}
		if _, err := s.AddBranch(bg, model.BranchInfo{Code: "SH001", Name: "上海", TimeZone: "Asia/Shanghai"}, "ZZ9"); model.ErrorCode(err) != model.ENotFound {
			t.Fatalf("add from an unknown branch: %v, want not found", err)
		}
		if all, _ := s.Branches(bg); len(all) != 1 {
			t.Fatalf("refused adds left branches: %+v", all)
		}

		bj, err := s.AddBranch(bg, model.BranchInfo{Code: "bj001", Name: "北京分行", TimeZone: "Asia/Shanghai"}, "")
		okAny(t, err)
		if bj.Code != "BJ001" || bj.ID == 1 {
			t.Fatalf("added %+v", bj)
		}
		if _, err := s.AddBranch(bg, model.BranchInfo{Code: "Bj001", Name: "又一个", TimeZone: "Asia/Shanghai"}, ""); model.ErrorCode(err) != model.EConflict {
			t.Fatalf("a taken code: %v, want conflict", err)
		}
		b2, err := s.Branch(bg, "BJ001")
		okAny(t, err)
		defer b2.Close()
		svc, err := b2.Services(bg)
		okAny(t, err)
		if got := serviceCodes(svc); !slices.Equal(got, []string{"A", "B", "V"}) {
			t.Fatalf("a new branch's services %v, want the defaults", got)
		}
		ws, err := b2.Windows(bg)
		okAny(t, err)
		if len(ws) != 4 || !slices.Equal(ws[0].Services, []string{"A", "B", "V"}) {
			t.Fatalf("a new branch's windows %+v, want four serving every default service", ws)
		}
		if areas, _ := b2.Areas(bg); len(areas) != 1 {
			t.Fatalf("a new branch's areas %+v, want the default one", areas)
		}
		if lv, err := b2.CustomerLevels(bg); err != nil || len(lv) != 3 || lv[1].Name != "贵宾" {
			t.Fatalf("a new branch's customer levels %+v (%v), want the three defaults", lv, err)
		}

		sh, err := s.AddBranch(bg, model.BranchInfo{Code: "SH002", Name: "上海分行", TimeZone: "Asia/Tokyo"}, "b001")
		okAny(t, err)
		b3, err := s.Branch(bg, "sh002")
		okAny(t, err)
		defer b3.Close()
		sameConfig(t, s, b3)
		if b3.Location().String() != "Asia/Tokyo" || s.Location().String() != "Asia/Shanghai" {
			t.Fatalf("zones %s and %s", b3.Location(), s.Location())
		}
		if tk := take(t, b3, "C", 0); tk.Number != "C500" {
			t.Fatalf("the copied service numbers from %s, want C500", tk.Number)
		}
		if v, _ := s.Snapshot(bg); v.Version == 0 {
			t.Fatal("branch 1 has no events after its changes")
		}
		if snap, _ := b3.Snapshot(bg); snap.Version != 1 {
			t.Fatalf("the copy's version %d after one take: the event log was copied", snap.Version)
		}

		all, err = s.Branches(bg)
		okAny(t, err)
		if got := []string{all[0].Code, all[1].Code, all[2].Code}; !slices.Equal(got, []string{"B001", "BJ001", "SH002"}) || all[2].ID != sh.ID {
			t.Fatalf("branches %+v", all)
		}
		_, err = sqlstore.OpenBranch(bg, dsn, "")
		if model.ErrorCode(err) != model.EInvalidInput || !strings.Contains(err.Error(), "B001, BJ001, SH002") {
			t.Fatalf("no code on three branches: %v", err)
		}
		if _, err = sqlstore.OpenBranch(bg, dsn, "GZ001"); model.ErrorCode(err) != model.ENotFound {
			t.Fatalf("an unknown code: %v", err)
		}
		if _, err = sqlstore.OpenBranch(bg, dsn, "G Z"); model.ErrorCode(err) != model.EInvalidInput {
			t.Fatalf("a bad code: %v", err)
		}
		direct, err := sqlstore.OpenBranch(bg, dsn, "sh002")
		okAny(t, err)
		defer direct.Close()
		if direct.BranchID() != sh.ID || direct.Location().String() != "Asia/Tokyo" {
			t.Fatalf("opened branch %d in %s", direct.BranchID(), direct.Location())
		}
	})
}

// sameConfig checks b copied a's services (areas mapped by name),
// windows with what they serve, areas and settings.
func sameConfig(t *testing.T, a, b *sqlstore.GormStore) {
	t.Helper()
	sa, _ := a.Services(bg)
	sb, _ := b.Services(bg)
	aa, _ := a.Areas(bg)
	ab, _ := b.Areas(bg)
	areaName := func(areas []model.Area, id int64) string {
		for _, x := range areas {
			if x.ID == id {
				return x.Name + "@" + x.Where
			}
		}
		return "?"
	}
	if len(sa) != len(sb) || len(aa) != len(ab) || len(sa) != 4 || len(aa) != 2 {
		t.Fatalf("services %d vs %d, areas %d vs %d", len(sa), len(sb), len(aa), len(ab))
	}
	for i := range sa {
		x, y := sa[i], sb[i]
		if x.ID == y.ID || areaName(aa, x.Area) != areaName(ab, y.Area) {
			t.Fatalf("service %s: ids %d/%d, areas %s/%s", x.Code, x.ID, y.ID, areaName(aa, x.Area), areaName(ab, y.Area))
		}
		x.ID, y.ID, x.Area, y.Area = 0, 0, 0, 0
		if x != y {
			t.Fatalf("service copied as %+v, was %+v", y, x)
		}
	}
	wa, _ := a.Windows(bg)
	wb, _ := b.Windows(bg)
	if len(wa) != len(wb) || len(wa) != 5 {
		t.Fatalf("windows %d vs %d", len(wa), len(wb))
	}
	for i := range wa {
		if wa[i].Number != wb[i].Number || wa[i].Name != wb[i].Name || !slices.Equal(wa[i].Services, wb[i].Services) {
			t.Fatalf("window copied as %+v, was %+v", wb[i], wa[i])
		}
	}
	ta, _ := a.Settings(bg)
	tb, _ := b.Settings(bg)
	if tb.Notice != "请保管好随身物品" || tb.CallTimeout != ta.CallTimeout || ta.CallTimeout.Seconds() != 300 {
		t.Fatalf("settings copied as notice %q timeout %s", tb.Notice, tb.CallTimeout)
	}
}

func serviceCodes(svc []model.Service) []string {
	out := make([]string, len(svc))
	for i, s := range svc {
		out[i] = s.Code
	}
	return out
}

// Head office adds branches from several PCs at once: each code is added
// once, a code added twice at the same moment is refused once as taken,
// and every branch gets its own services, windows and area.
func TestAddBranchesConcurrently(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		stores := openStores(t, dsn, 3)
		codes := []string{"BJ001", "BJ002", "SH001", "SH002", "GZ001", "GZ001"}
		errs := make([]error, len(codes))
		var wg sync.WaitGroup
		for i, code := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = stores[i%len(stores)].AddBranch(bg, model.BranchInfo{Code: code, Name: "网点" + code, TimeZone: "Asia/Shanghai"}, "")
			}()
		}
		wg.Wait()
		for _, err := range errs[:4] {
			okAny(t, err)
		}
		if a, b := model.ErrorCode(errs[4]), model.ErrorCode(errs[5]); !(a == "" && b == model.EConflict || a == model.EConflict && b == "") {
			t.Fatalf("GZ001 added twice at once: %v and %v, want one success and one conflict", errs[4], errs[5])
		}
		all, err := stores[0].Branches(bg)
		okAny(t, err)
		if len(all) != 6 {
			t.Fatalf("branches %+v, want 6", all)
		}
		for _, b := range all {
			st, err := stores[0].Branch(bg, b.Code)
			okAny(t, err)
			svc, _ := st.Services(bg)
			ws, _ := st.Windows(bg)
			areas, _ := st.Areas(bg)
			if len(svc) != 3 || len(ws) != 4 || len(areas) != 1 {
				t.Fatalf("branch %s has %d services, %d windows, %d areas", b.Code, len(svc), len(ws), len(areas))
			}
			st.Close()
		}
	})
}

// `branch add --from` copies the look a branch shows, its logo with its
// colours (both are `jiaohao settings`), and the copy is the new branch's
// own: changing or removing it leaves the branch it came from alone.
func TestAddBranchCopiesLogo(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		s, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		defer s.Close()
		logo := daotest.LogoPNG(t, 300, 120)
		okAny(t, s.SetLogo(bg, logo))
		_, err = s.AddBranch(bg, model.BranchInfo{Code: "BJ001", Name: "北京分行", TimeZone: "Asia/Shanghai"}, "B001")
		okAny(t, err)
		_, err = s.AddBranch(bg, model.BranchInfo{Code: "SH001", Name: "上海分行", TimeZone: "Asia/Shanghai"}, "")
		okAny(t, err)
		bj, err := s.Branch(bg, "BJ001")
		okAny(t, err)
		defer bj.Close()
		sh, err := s.Branch(bg, "SH001")
		okAny(t, err)
		defer sh.Close()
		if got := val(bj.Logo(bg))(t); !bytes.Equal(got, logo) {
			t.Fatalf("the copy's logo is %d bytes, want the %d of the branch it came from", len(got), len(logo))
		}
		if got := val(sh.Logo(bg))(t); got != nil {
			t.Fatalf("a branch added with the defaults has a logo of %d bytes", len(got))
		}
		okAny(t, bj.SetLogo(bg, nil))
		if got := val(s.Logo(bg))(t); !bytes.Equal(got, logo) {
			t.Fatal("removing the copy's logo removed the original's")
		}
	})
}
