package sqlstore_test

import (
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A database from before areas has no area table and no service.area_id:
// opening it gives the branch its default area with every service in it;
// a service found in an area that is gone goes back there at the next.
func TestMigrationPutsEveryServiceInTheDefaultArea(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		old, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		okAny(t, old.DB().Exec("DROP TABLE area").Error)
		okAny(t, old.DB().Exec("ALTER TABLE service DROP COLUMN area_id").Error)
		okAny(t, old.Close())
		// Opened once more, then one service is left in an area that is gone.
		mid, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		def := val(mid.Areas(bg))(t)
		for _, v := range val(mid.Services(bg))(t) {
			if len(def) != 1 || v.Area != def[0].ID {
				t.Fatalf("after the first open service %s is in area %d, areas %+v", v.Code, v.Area, def)
			}
		}
		okAny(t, mid.DB().Exec("UPDATE service SET area_id = 999999 WHERE code = 'B'").Error)
		okAny(t, mid.Close())

		s, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		defer s.Close()
		areas := val(s.Areas(bg))(t)
		if len(areas) != 1 {
			t.Fatalf("areas after the migration = %+v, want the default one", areas)
		}
		svc := val(s.Services(bg))(t)
		if len(svc) == 0 {
			t.Fatal("the seeded services are gone")
		}
		for _, v := range svc {
			if v.Area != areas[0].ID {
				t.Errorf("service %s is in area %d, want the default %d", v.Code, v.Area, areas[0].ID)
			}
		}
		snap := val(s.Snapshot(bg))(t)
		for _, c := range snap.Services {
			if a, ok := snap.AreaOf(c.Code); !ok || a.ID != areas[0].ID {
				t.Errorf("the snapshot puts %s in %+v (%v), want the default area", c.Code, a, ok)
			}
		}
	})
}

func TestAreasSaveAssignAndRefuseDeletingANonEmptyOne(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		def := val(s.Areas(bg))(t)[0]
		vip := val(s.SaveArea(bg, model.Area{Name: " 二楼贵宾区 ", Where: "二楼"}))(t)
		if vip.ID == 0 || vip.Name != "二楼贵宾区" || vip.Where != "二楼" {
			t.Fatalf("saved area = %+v", vip)
		}
		if _, err := s.SaveArea(bg, model.Area{Name: "二楼贵宾区"}); !model.IsCode(err, model.EConflict) {
			t.Fatalf("a second area of the same name = %v, want %s", err, model.EConflict)
		}
		svc := val(s.Services(bg))(t)
		var v model.Service
		for _, x := range svc {
			if x.Code == "V" {
				v = x
			}
		}
		v.Area = vip.ID
		okAny(t, errOf(s.SaveService(bg, v)))
		// A save that names no area (an older client) keeps it.
		v.Area, v.Name = 0, "贵宾业务"
		okAny(t, errOf(s.SaveService(bg, v)))
		if a, ok := val(s.Snapshot(bg))(t).AreaOf("V"); !ok || a.ID != vip.ID {
			t.Fatalf("V is in %+v, want %+v", a, vip)
		}
		// A new service goes to the default area.
		okAny(t, errOf(s.SaveService(bg, model.Service{Code: "C", Name: "外汇", Priority: 5, StartNo: 1, Enabled: true})))
		if a, _ := val(s.Snapshot(bg))(t).AreaOf("C"); a.ID != def.ID {
			t.Fatalf("a new service is in %+v, want the default %+v", a, def)
		}
		v.Area = 999999
		if _, err := s.SaveService(bg, v); !model.IsCode(err, model.ENotFound) {
			t.Fatalf("a service in an unknown area = %v, want %s", err, model.ENotFound)
		}

		before := val(s.Snapshot(bg))(t).Version
		err := s.DeleteArea(bg, vip.ID)
		if !model.IsCode(err, model.EAreaNotEmpty) || model.ErrorMessage(err) == "" {
			t.Fatalf("deleting an area with a service = %v, want %s", err, model.EAreaNotEmpty)
		}
		if got := val(s.Areas(bg))(t); len(got) != 2 || val(s.Snapshot(bg))(t).Version != before {
			t.Fatalf("the refusal changed something: areas %+v", got)
		}
		v.Area = def.ID
		okAny(t, errOf(s.SaveService(bg, v)))
		okAny(t, s.DeleteArea(bg, vip.ID))
		if got := val(s.Areas(bg))(t); len(got) != 1 || got[0].ID != def.ID {
			t.Fatalf("after deleting the empty area: %+v", got)
		}
		if err := s.DeleteArea(bg, def.ID); !model.IsCode(err, model.EAreaNotEmpty) && !model.IsCode(err, model.EInvalidInput) {
			t.Fatalf("deleting the last area = %v", err)
		}
	})
}

func errOf[T any](_ T, err error) error { return err }
