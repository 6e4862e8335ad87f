//go:build windows

package app

import (
	"syscall"
	"unsafe"
)

// machineSetupNames are the values the MSI writes under machineSetupPath.
var machineSetupNames = []string{"Role", "Host", "Token", "Window", "DB", "Branch", "Lang", "Printer", "LED", "DataDir"}

const machineSetupPath = `SOFTWARE\Jiaohao\Setup`

// readMachineSetup reads the installer's values from the 64-bit view of
// HKLM; nil when the program was not installed by the MSI.
func readMachineSetup() machineSetup {
	path, err := syscall.UTF16PtrFromString(machineSetupPath)
	if err != nil {
		return nil
	}
	var key syscall.Handle
	if syscall.RegOpenKeyEx(syscall.HKEY_LOCAL_MACHINE, path, 0, syscall.KEY_READ|syscall.KEY_WOW64_64KEY, &key) != nil {
		return nil
	}
	defer syscall.RegCloseKey(key)
	m := machineSetup{}
	for _, name := range machineSetupNames {
		if v, ok := regString(key, name); ok {
			m[name] = v
		}
	}
	return m
}

// regString reads one REG_SZ value.
func regString(key syscall.Handle, name string) (string, bool) {
	n, err := syscall.UTF16PtrFromString(name)
	if err != nil {
		return "", false
	}
	var typ, size uint32
	if syscall.RegQueryValueEx(key, n, nil, &typ, nil, &size) != nil || typ != syscall.REG_SZ || size == 0 || size > 64<<10 {
		return "", false
	}
	buf := make([]uint16, (size+1)/2)
	if syscall.RegQueryValueEx(key, n, nil, &typ, (*byte)(unsafe.Pointer(&buf[0])), &size) != nil {
		return "", false
	}
	return syscall.UTF16ToString(buf), true
}
