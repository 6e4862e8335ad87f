/*
 * bcryptprimitives.dll for wine, test-only: never shipped.
 *
 * Go 1.24 and later fetch random bytes at start-up with ProcessPrng from
 * bcryptprimitives.dll. Real Windows 10 and later have it; Debian's wine 8
 * has no bcryptprimitives.dll at all, so jiaohao.exe stops before main.
 * The wine tests (scripts/wine_test.go) build this file with mingw-w64 and
 * copy it into their private prefix's system32. It answers with
 * RtlGenRandom (SystemFunction036 of advapi32), which wine does have.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	/* RtlGenRandom takes a ULONG: feed it in chunks. */
	while (len > 0) {
		ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
