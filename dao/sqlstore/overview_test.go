package sqlstore_test

import (
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// Each branch's line on head office's overview counts its own queue only:
// who waits and for how long, whom its windows serve, which are open.
func TestBranchOverview(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		s1 := openStores(t, dsn, 1)[0]
		_, err := s1.AddBranch(bg, model.BranchInfo{Code: "BJ001", Name: "北京分行", TimeZone: "Asia/Shanghai"}, "")
		okAny(t, err)
		s2, err := s1.Branch(bg, "BJ001")
		okAny(t, err)
		defer s2.Close()
		for range 3 {
			take(t, s1, "A", 0)
		}
		ok(t)(s1.CallNext(bg, 1, ""))
		_, err = s1.SetWindowStatus(bg, 2, model.WindowPaused)
		okAny(t, err)
		take(t, s2, "B", 0)
		s2.ShiftClock(10 * time.Minute)

		o1, err := s1.Overview(bg)
		okAny(t, err)
		o2, err := s2.Overview(bg)
		okAny(t, err)
		if o1.Code != "B001" || o1.Waiting != 2 || o1.Serving != 1 || o1.OpenWindows != 3 || o1.LongestWait <= 0 || o1.LongestWait > time.Minute {
			t.Fatalf("branch 1's line %+v", o1)
		}
		if o2.Code != "BJ001" || o2.Name != "北京分行" || o2.Waiting != 1 || o2.Serving != 0 || o2.OpenWindows != 4 || o2.LongestWait < 10*time.Minute {
			t.Fatalf("branch 2's line %+v", o2)
		}
	})
}
