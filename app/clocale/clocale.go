//go:build !windows

package clocale

import (
	"os"
	"strings"
)

func init() { normalize(os.Getenv, os.Setenv) }

// normalize rewrites the variable the locale is taken from (the first set
// of LC_ALL, LC_MESSAGES, LANG) from "C.UTF-8"-like values to plain "C".
// When that is LC_MESSAGES or LANG and LC_CTYPE is unset, LC_CTYPE keeps
// the original so programs this one starts keep the UTF-8 character set.
func normalize(get func(string) string, set func(string, string) error) {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := get(name)
		if v == "" {
			continue
		}
		lang := v
		if i := strings.IndexAny(lang, ".@"); i >= 0 {
			lang = lang[:i]
		}
		if (lang != "C" && lang != "POSIX") || lang == v {
			return
		}
		if name != "LC_ALL" && get("LC_CTYPE") == "" {
			_ = set("LC_CTYPE", v)
		}
		_ = set(name, lang)
		return
	}
}
