package model

import (
	"unicode/utf8"
)

// The limits of what the store keeps. Every door checks them through the
// functions below: the peer server's decoder before anything else, and the
// store again for the roles that reach it directly (desktop PCs on a shared
// database). One table, so the two can never disagree about the same value.
const (
	MaxCodeLen         = 4    // service code (ticket prefix): 1-4 of A-Z
	MaxNameLen         = 20   // service and window names, in characters
	MinStartNo         = 1    // a service's first number of the day
	MaxStartNo         = 9999 // leaves room for the day's numbers under the width
	MinWindowNo        = 1
	MaxWindowNo        = 999
	MaxWidth           = 8       // number padding; 0 means the branch's number_width
	MaxSortOrder       = 1000000 // |sort_order|
	MaxTerminalNameLen = 60      // a PC's name in the token list and the event log
	MaxFaultLen        = 200     // a device fault sentence, in characters
	MaxSettingLen      = 1000    // a setting value, in bytes
	MaxServicesListed  = 64      // services one window may serve
)

// CheckServiceCode accepts 1 to MaxCodeLen capital letters.
func CheckServiceCode(code string) error {
	if len(code) < 1 || len(code) > MaxCodeLen {
		return errCode()
	}
	for i := 0; i < len(code); i++ {
		if code[i] < 'A' || code[i] > 'Z' {
			return errCode()
		}
	}
	return nil
}

func errCode() error {
	return Errorf(EInvalidInput, "业务代码须为 1 到 %d 个大写字母 (service code must be 1-%d of A-Z)", MaxCodeLen, MaxCodeLen)
}

// CheckWindowNo accepts a window number people can read off a sign.
func CheckWindowNo(n int) error {
	if n < MinWindowNo || n > MaxWindowNo {
		return Errorf(EInvalidInput, "窗口号须在 %d 到 %d 之间 (window must be %d-%d)", MinWindowNo, MaxWindowNo, MinWindowNo, MaxWindowNo)
	}
	return nil
}

// CheckPriority accepts MinPriority to MaxPriority.
func CheckPriority(p int) error {
	if p < MinPriority || p > MaxPriority {
		return Errorf(EInvalidInput, "优先级须在 %d 到 %d 之间 (priority must be %d-%d)", MinPriority, MaxPriority, MinPriority, MaxPriority)
	}
	return nil
}

// CheckName accepts a service or window name (what says which in both
// languages, e.g. "业务名称 (service name)"): 1 to MaxNameLen characters,
// no control characters.
func CheckName(zh, en, name string) error {
	if name == "" || utf8.RuneCountInString(name) > MaxNameLen {
		return Errorf(EInvalidInput, "%s须为 1 到 %d 个字 (%s must be 1-%d characters)", zh, MaxNameLen, en, MaxNameLen)
	}
	return CheckText(zh, en, name, false)
}

// CheckTerminalName accepts a PC's name: up to MaxTerminalNameLen
// characters, empty allowed (the role names it then).
func CheckTerminalName(name string) error {
	if utf8.RuneCountInString(name) > MaxTerminalNameLen {
		return Errorf(EInvalidInput, "终端名称超过 %d 个字 (terminal name longer than %d characters)", MaxTerminalNameLen, MaxTerminalNameLen)
	}
	return CheckText("终端名称", "terminal name", name, false)
}

// CheckFault accepts a device's fault sentence ("" means it recovered).
func CheckFault(fault string) error {
	if utf8.RuneCountInString(fault) > MaxFaultLen {
		return Errorf(EInvalidInput, "设备故障说明超过 %d 个字 (fault longer than %d characters)", MaxFaultLen, MaxFaultLen)
	}
	return nil
}

// CheckService checks everything of a service but whether its code is
// taken.
func CheckService(s Service) error {
	if err := CheckServiceCode(s.Code); err != nil {
		return err
	}
	if err := CheckName("业务名称", "service name", s.Name); err != nil {
		return err
	}
	if err := CheckPriority(s.Priority); err != nil {
		return err
	}
	switch {
	case s.StartNo < MinStartNo || s.StartNo > MaxStartNo:
		return Errorf(EInvalidInput, "起始号须在 %d 到 %d 之间 (start_no must be %d-%d)", MinStartNo, MaxStartNo, MinStartNo, MaxStartNo)
	case s.Width < 0 || s.Width > MaxWidth:
		return Errorf(EInvalidInput, "号码位数须在 0 到 %d 之间，0 表示使用网点设置 (width must be 0-%d; 0: the branch setting)", MaxWidth, MaxWidth)
	case s.SortOrder < -MaxSortOrder || s.SortOrder > MaxSortOrder:
		return Errorf(EInvalidInput, "排序值须在 ±%d 之内 (sort_order must be within ±%d)", MaxSortOrder, MaxSortOrder)
	}
	return nil
}

// CheckWindow checks a window's number and name.
func CheckWindow(w Window) error {
	if err := CheckWindowNo(w.Number); err != nil {
		return err
	}
	return CheckName("窗口名称", "window name", w.Name)
}

// CheckServiceList checks the services a window serves: valid codes, each
// once, at most MaxServicesListed.
func CheckServiceList(codes []string) error {
	if len(codes) > MaxServicesListed {
		return Errorf(EInvalidInput, "一个窗口最多办理 %d 种业务 (at most %d services per window)", MaxServicesListed, MaxServicesListed)
	}
	seen := make(map[string]bool, len(codes))
	for _, c := range codes {
		if err := CheckServiceCode(c); err != nil {
			return err
		}
		if seen[c] {
			return Errorf(EInvalidInput, "业务 %s 重复 (service listed twice)", c)
		}
		seen[c] = true
	}
	return nil
}
