package model

// CheckSwitch says whether a window's clerk may make it serve services:
// each must be one the manager allowed the window (seed 003 §3.2: personal
// business in the morning, corporate in the afternoon, both set up by the
// manager). The manager changes what is allowed in the window's setup.
func CheckSwitch(w Window, services []string) error {
	if err := CheckServiceList(services); err != nil {
		return err
	}
	for _, c := range services {
		if !w.Allows(c) {
			return Errorf(EForbidden, "%d 号窗口未获准办理业务 %s，请联系管理员 (the manager has not allowed window %d service %s)", w.Number, c, w.Number, c)
		}
	}
	return nil
}

// AllowedUnion is what a window allows once it also serves services: the
// allowed set never loses a service the window serves.
func AllowedUnion(allowed, services []string) []string {
	out := append([]string(nil), allowed...)
	for _, c := range services {
		found := false
		for _, a := range out {
			found = found || a == c
		}
		if !found {
			out = append(out, c)
		}
	}
	return out
}
