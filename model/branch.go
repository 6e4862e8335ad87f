package model

import (
	"strings"
	"time"
	"unicode/utf8"
)

// MaxBranchName bounds the branch's name: the width of the branch row's
// column, and far more than a ticket header can print.
const MaxBranchName = 100

// CheckBranch says in one sentence what is wrong with a branch name and
// time zone the manager typed. The zone is an IANA name the program knows
// (it embeds the database, so every PC knows the same ones); "Local" is
// refused, since it would mean each PC's own clock setting.
func CheckBranch(name, zone string) error {
	name = strings.TrimSpace(name)
	if name == "" {
		return Errorf(EInvalidInput, "网点名称不能为空 (the branch name is empty)")
	}
	if utf8.RuneCountInString(name) > MaxBranchName {
		return Errorf(EInvalidInput, "网点名称不能超过 %d 个字 (the branch name is longer than %d characters)", MaxBranchName, MaxBranchName)
	}
	if err := CheckText("网点名称", "the branch name", name, false); err != nil {
		return err
	}
	if _, err := LoadZone(zone); err != nil {
		return err
	}
	return nil
}

// LoadZone is the time zone named zone, e.g. Asia/Shanghai, or a sentence
// saying it is not one.
func LoadZone(zone string) (*time.Location, error) {
	zone = strings.TrimSpace(zone)
	bad := Errorf(EInvalidInput, "时区 %q 无效，请填写如 Asia/Shanghai 的时区名 (unknown time zone; use a name such as Asia/Shanghai)", zone)
	if zone == "" || zone == "Local" || len(zone) > 64 {
		return nil, bad
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return nil, bad
	}
	return loc, nil
}
