package sqlstore_test

import (
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
)

// What the kiosk's tile promises before the tap is what the number taken
// next then gets and keeps, for every service, at windows that share
// services; a disabled service has no tile.
func TestNextPositionsIsWhatTheTakeGets(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		oneSharedWindow(t, s)
		take(t, s, "B", 0)
		take(t, s, "B", 0)
		take(t, s, "A", 0)
		for _, code := range []string{"A", "B", "V", "A"} {
			np, err := s.NextPositions(bg)
			if err != nil {
				t.Fatal(err)
			}
			promised, ok := np[code]
			if !ok {
				t.Fatalf("no estimate for %s in %v", code, np)
			}
			tk := take(t, s, code, 0)
			var kept []int
			if err := s.DB().Raw("SELECT estimate_s FROM ticket WHERE id = ?", tk.ID).Scan(&kept).Error; err != nil {
				t.Fatal(err)
			}
			got := ok2(t)(s.Position(bg, tk.ID))
			if len(kept) != 1 || kept[0] != promised.ETASeconds || got != promised {
				t.Fatalf("%s: promised %+v, the take kept %v s and stands at %+v", tk.Number, promised, kept, got)
			}
		}
		// Every A and B waits at the one 综合 window, each V at its own.
		np, err := s.NextPositions(bg)
		if err != nil {
			t.Fatal(err)
		}
		if np["A"].Ahead != 6 || np["V"].Ahead != 1 {
			t.Fatalf("next A sees %d ahead (want the 3 B and 3 A of the 综合 window), next V %d (want 1)", np["A"].Ahead, np["V"].Ahead)
		}
		svc, err := s.Services(bg)
		if err != nil {
			t.Fatal(err)
		}
		for _, sv := range svc {
			if sv.Code == "B" {
				sv.Enabled = false
				if _, err := s.SaveService(bg, sv); err != nil {
					t.Fatal(err)
				}
			}
		}
		if np, err = s.NextPositions(bg); err != nil {
			t.Fatal(err)
		}
		if _, ok := np["B"]; ok {
			t.Fatalf("a disabled service has an estimate: %v", np)
		}
	})
}
