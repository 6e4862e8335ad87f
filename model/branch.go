package model

import (
	"fmt"
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

// MaxBranchCode bounds a branch code: the width of the branch row's
// column, and room for a region prefix and a number (BJ001, SH-PD-0012).
const MaxBranchCode = 16

// BranchInfo is one branch of the database: its code (how commands,
// setups and tokens address it), name and time zone.
type BranchInfo struct {
	ID       int64
	Code     string
	Name     string
	TimeZone string
}

// NormalBranchCode is code as the database keeps it (trimmed, upper case:
// codes are case-insensitive), or a sentence saying it is not one: ASCII
// letters, digits, '-' and '_', starting with a letter or digit. The
// characters are checked before upper-casing, which turns some others
// into ASCII (ſ into S, ı into I): a code is only what it is typed as.
// ALL is no code: `serve --branch all` means every branch.
func NormalBranchCode(code string) (string, error) {
	code = strings.TrimSpace(code)
	shown := code
	if r := []rune(shown); len(r) > MaxBranchCode+4 {
		shown = string(r[:MaxBranchCode]) + "…"
	}
	bad := Errorf(EInvalidInput, "网点代码 %q 无效：须为 1 至 %d 位字母、数字、- 或 _ (a branch code is 1 to %d letters, digits, - or _)", shown, MaxBranchCode, MaxBranchCode)
	if code == "" || len(code) > MaxBranchCode {
		return "", bad
	}
	for i, r := range code {
		switch {
		case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		case (r == '-' || r == '_') && i > 0:
		default:
			return "", bad
		}
	}
	code = strings.ToUpper(code)
	if code == AllBranches {
		return "", Errorf(EInvalidInput, "网点代码不能是 ALL，它表示所有网点 (ALL is no branch code: it means every branch)")
	}
	return code, nil
}

// AllBranches is what --branch names for every branch of the database.
const AllBranches = "ALL"

// BranchCodes reads a set of branches as head office names them: codes
// separated by commas, or "" or ALL for every branch (nil). A code listed
// twice is refused: a report over the set would count it twice.
func BranchCodes(list string) ([]string, error) {
	list = strings.TrimSpace(list)
	if list == "" || strings.EqualFold(list, AllBranches) {
		return nil, nil
	}
	seen := map[string]bool{}
	var codes []string
	for _, c := range strings.Split(list, ",") {
		code, err := NormalBranchCode(c)
		if err != nil {
			return nil, err
		}
		if seen[code] {
			return nil, Errorf(EInvalidInput, "网点 %s 列了两次 (the branch %s is listed twice)", code, code)
		}
		seen[code] = true
		codes = append(codes, code)
	}
	return codes, nil
}

// DefaultBranchCode is the code a branch from before codes gets: B and its
// number, B001 for the first.
func DefaultBranchCode(id int64) string { return fmt.Sprintf("B%03d", id) }
