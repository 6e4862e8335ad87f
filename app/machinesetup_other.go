//go:build !windows

package app

// readMachineSetup: only the Windows installer writes a machine setup; on
// other systems a PC is set up by the setup window or `settings import`.
func readMachineSetup() machineSetup { return nil }
