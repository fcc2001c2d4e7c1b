package auth

import (
	"strings"
	"testing"
)

// Password lengths count characters, as the sign-up form says, not bytes.
func TestPasswordLenOK(t *testing.T) {
	for _, tc := range []struct {
		password string
		ok       bool
	}{
		{strings.Repeat("a", MinPasswordLen-1), false},
		{strings.Repeat("a", MinPasswordLen), true},
		{strings.Repeat("é", MinPasswordLen-1), false}, // 18 bytes, 9 characters
		{strings.Repeat("日", MaxPasswordLen), true},    // 3 072 bytes
		{strings.Repeat("a", MaxPasswordLen+1), false},
		{strings.Repeat("日", MaxPasswordLen+1), false},
	} {
		if got := PasswordLenOK(tc.password); got != tc.ok {
			t.Errorf("%d bytes, %q...: %v, want %v", len(tc.password), tc.password[:3], got, tc.ok)
		}
	}
}
