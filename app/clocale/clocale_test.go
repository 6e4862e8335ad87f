//go:build !windows

package clocale

import "testing"

func TestNormalize(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want map[string]string
	}{
		{map[string]string{"LANG": "C.UTF-8"}, map[string]string{"LANG": "C", "LC_CTYPE": "C.UTF-8"}},
		{map[string]string{"LC_ALL": "POSIX.utf8", "LANG": "zh_CN.UTF-8"}, map[string]string{"LC_ALL": "POSIX", "LANG": "zh_CN.UTF-8"}},
		{map[string]string{"LC_MESSAGES": "C.UTF-8", "LC_CTYPE": "zh_CN.GB18030"}, map[string]string{"LC_MESSAGES": "C", "LC_CTYPE": "zh_CN.GB18030"}},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, map[string]string{"LANG": "zh_CN.UTF-8"}},
		{map[string]string{"LANG": "C"}, map[string]string{"LANG": "C"}},
		{map[string]string{}, map[string]string{}},
	} {
		env := map[string]string{}
		for k, v := range c.env {
			env[k] = v
		}
		normalize(func(k string) string { return env[k] }, func(k, v string) error { env[k] = v; return nil })
		if len(env) != len(c.want) {
			t.Errorf("%v became %v, want %v", c.env, env, c.want)
		}
		for k, v := range c.want {
			if env[k] != v {
				t.Errorf("%v became %v, want %v", c.env, env, c.want)
			}
		}
	}
}
