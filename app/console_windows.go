//go:build windows

package app

import (
	"os"
	"syscall"
)

// The packaged jiaohao.exe is a Windows GUI program, so no console window
// flashes up behind a kiosk or a hall screen. The price is that Windows
// gives it no console, and what `jiaohao token add` prints in a Command
// Prompt would vanish. So when a command is given and its output is not
// already going to a file or a pipe, borrow the console of the window the
// command was typed in.
func init() {
	if len(os.Args) > 1 && os.Args[1] != "" && os.Args[1][0] != '-' {
		attachParentConsole()
	}
}

var procAttachConsole = syscall.NewLazyDLL("kernel32.dll").NewProc("AttachConsole")

func attachParentConsole() {
	if usable(os.Stdout) && usable(os.Stderr) {
		return // a console build, or the output is redirected
	}
	const attachParentProcess = ^uintptr(0) // ATTACH_PARENT_PROCESS, (DWORD)-1
	// ERROR_ACCESS_DENIED says this process already has a console (wine
	// gives a GUI child its parent's): CONOUT$ is that console.
	if ok, _, err := procAttachConsole.Call(attachParentProcess); ok == 0 && err != syscall.ERROR_ACCESS_DENIED {
		return // started from Explorer or a shortcut: no console to borrow
	}
	if !usable(os.Stdout) {
		if f, err := os.OpenFile("CONOUT$", os.O_WRONLY, 0); err == nil {
			os.Stdout = f
		}
	}
	if !usable(os.Stderr) {
		if f, err := os.OpenFile("CONOUT$", os.O_WRONLY, 0); err == nil {
			os.Stderr = f
		}
	}
}

// usable reports whether f is a real handle: a console, a file or a pipe.
func usable(f *os.File) bool {
	if f == nil {
		return false
	}
	t, err := syscall.GetFileType(syscall.Handle(f.Fd()))
	return err == nil && t != syscall.FILE_TYPE_UNKNOWN
}
