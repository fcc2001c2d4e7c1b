package account

import (
	"strings"
	"testing"
)

func TestValidEmail(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"you@example.org", true},
		{"  You@Example.ORG \n", true}, // normalised first
		{"a@b", true},
		{"", false},
		{"   ", false},
		{"notanemail", false},
		{"@example.org", false},
		{"you@", false},
		{"You <you@example.org>", false},
		{"<you@example.org>", false},
		{"you@example.org (work)", false},
		{"a@b, c@d", false},
		{"x@" + strings.Repeat("a", 250) + ".org", false}, // 256 bytes
		{"x@" + strings.Repeat("a", 248) + ".org", true},  // 254 bytes
	} {
		if got := ValidEmail(NormalizeEmail(tc.in)); got != tc.want {
			t.Errorf("ValidEmail(NormalizeEmail(%q)) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
