package sqlstore

import (
	"sync"

	"modernc.org/libc"
	"modernc.org/libc/sys/types"
)

// The SQLite engine's C library allocates from pages of one size class
// each (1 MiB on Linux, holding slots of up to 256 KiB) and hands a page
// back to the system the moment its last slot is freed. A statement that
// was the only user of a class (its program, its cursors, its parse)
// mapped a page when it was prepared and unmapped it when finalized: with
// 20,000 waiting a take plus its position made about 28 munmap calls (10
// with 20 waiting), and mapping and unmapping were a fifth of its CPU. One
// slot of every class held for the life of the process keeps each class's
// first page mapped, so the statements reuse it: the same take makes none.

var pinOnce sync.Once

// pinAllocator holds one slot of every size class, once per process. It
// costs about 512 KiB; where the pages are smaller (64 KiB on Windows)
// the larger sizes are mappings of their own, kept as well.
func pinAllocator() {
	pinOnce.Do(func() {
		tls := libc.NewTLS()
		for size := 16; size <= 256<<10; size <<= 1 {
			libc.Xmalloc(tls, types.Size_t(size))
		}
		// The slots stay; the thread state is only for the calls.
		tls.Close()
	})
}
