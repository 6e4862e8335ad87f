package dao_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"jiaohao/dao"
	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// BenchmarkTakeTicket: one kiosk's take, per engine.
func BenchmarkTakeTicket(b *testing.B) {
	eachBench(b, func(b *testing.B, s *dao.GormStore) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := s.TakeTicket(bg, "A", 0, "bench"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCallNext: 16 windows calling in parallel over a full queue.
func BenchmarkCallNext(b *testing.B) {
	eachBench(b, func(b *testing.B, s *dao.GormStore) {
		for w := 5; w <= 16; w++ {
			if _, err := s.SaveWindow(bg, model.Window{Number: w, Name: "W", Services: []string{"A"}}); err != nil {
				b.Fatal(err)
			}
		}
		for i := 0; i < b.N+16; i++ {
			if _, err := s.TakeTicket(bg, "A", 0, "bench"); err != nil {
				b.Fatal(err)
			}
		}
		var next atomic.Int64
		b.SetParallelism(8) // 2 cores x 8 = 16 windows
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			window := int(next.Add(1)-1)%16 + 1
			for pb.Next() {
				if _, err := s.CallNext(bg, window, ""); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

func eachBench(b *testing.B, fn func(b *testing.B, s *dao.GormStore)) {
	for _, engine := range daotest.Engines() {
		b.Run(engine, func(b *testing.B) {
			dsn := daotest.BenchDSN(b, engine)
			s, err := dao.Open(bg, dsn)
			if err != nil {
				b.Fatal(fmt.Errorf("%s: %w", engine, err))
			}
			defer s.Close()
			fn(b, s)
		})
	}
}
