/*
 * nohandles COMMAND-LINE: run a program the way Windows starts a GUI
 * program typed in a Command Prompt, test-only.
 *
 * Windows gives a GUI-subsystem child of a console program no standard
 * handles, so what it prints is lost unless it attaches to its parent's
 * console (app/console_windows.go does). Wine hands such a child its
 * parent's console handles instead, which would hide a missing attach; this
 * starts the child with none, from a process that has the console, and
 * returns the child's exit code.
 */
#include <windows.h>
#include <stdio.h>

int wmain(void)
{
	/* The command line after this program's own name. */
	wchar_t *cmd = GetCommandLineW();
	BOOL quoted = *cmd == L'"';
	for (cmd++; *cmd && (quoted ? *cmd != L'"' : *cmd != L' '); cmd++)
		;
	if (*cmd == L'"')
		cmd++;
	while (*cmd == L' ')
		cmd++;

	STARTUPINFOW si = {sizeof si};
	si.dwFlags = STARTF_USESTDHANDLES; /* and all three left NULL */
	PROCESS_INFORMATION pi;
	if (!CreateProcessW(NULL, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) {
		fprintf(stderr, "nohandles: CreateProcess failed: %lu\n", GetLastError());
		return 127;
	}
	WaitForSingleObject(pi.hProcess, INFINITE);
	DWORD code = 1;
	GetExitCodeProcess(pi.hProcess, &code);
	return (int)code;
}
