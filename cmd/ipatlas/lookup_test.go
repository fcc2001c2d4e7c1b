package main

import (
	"slices"
	"testing"
)

func TestSplitLookupArgs(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		flags, pos []string
	}{
		{[]string{"IE"}, nil, []string{"IE"}},
		{[]string{"8.8.8.8", "--lang", "de"}, []string{"--lang", "de"}, []string{"8.8.8.8"}},
		{[]string{"--lang=ja", "53.35", "-6.26"}, []string{"--lang=ja"}, []string{"53.35", "-6.26"}},
		{[]string{"-33.87", "151.2", "--data", "d", "x=y"}, []string{"--data", "d"}, []string{"-33.87", "151.2", "x=y"}},
		{[]string{"-h", "IE"}, []string{"-h"}, []string{"IE"}},
	} {
		flags, pos := splitLookupArgs(tc.args)
		if !slices.Equal(flags, tc.flags) || !slices.Equal(pos, tc.pos) {
			t.Errorf("%q: flags %q pos %q; want %q %q", tc.args, flags, pos, tc.flags, tc.pos)
		}
	}
}
