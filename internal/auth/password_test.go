package auth

import (
	"strings"
	"testing"
)

func TestPassword(t *testing.T) {
	h := HashPassword("correct horse")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=65536,t=3,p=2$") {
		t.Fatalf("encoding %q does not record the algorithm and parameters", h)
	}
	if h2 := HashPassword("correct horse"); h2 == h {
		t.Error("two hashes of one password are equal: no salt")
	}
	if err := CheckPassword(h, "correct horse"); err != nil {
		t.Errorf("right password: %v", err)
	}
	// A hash made with other parameters still checks: they are read from the encoding.
	cheap := "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$"
	tests := []struct {
		name, hash, password string
	}{
		{"wrong password", h, "correct horsE"},
		{"empty hash (no password set)", "", ""},
		{"empty hash, any password", "", "correct horse"},
		{"other algorithm", strings.Replace(h, "argon2id", "argon2i", 1), "correct horse"},
		{"truncated", h[:len(h)-10], "correct horse"},
		{"no hash part", cheap, "x"},
		{"absurd memory", "$argon2id$v=19$m=99999999,t=1,p=1$c2FsdA$aGFzaA", "x"},
		{"garbage", "$$$$$", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := CheckPassword(tt.hash, tt.password); err != ErrBadPassword {
				t.Errorf("CheckPassword = %v, want ErrBadPassword", err)
			}
		})
	}
}

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

func TestWeakPassword(t *testing.T) {
	for _, tc := range []struct {
		password, email string
		weak            bool
	}{
		{"correct horse battery", "ada@example.org", false},
		{"Tr0ub4dor&3x", "ada@example.org", false},
		{"          ", "ada@example.org", true},
		{"ada@example.org", "ada@example.org", true},
		{"ADA@EXAMPLE.ORG!", "ada@example.org", true},
		{"lovelace-2026", "lovelace@example.org", true}, // the name part
		{"ada-2026-xyz", "ada@example.org", false},      // a name part of three letters is too common to refuse
		{"xample.org", "ada@example.org", true},         // within the email
		{"aaaaaaaaaa", "", true},
		{"abababab12", "", true},
		{"1234567890", "", true},
		{"0987654321", "", true},
		{"abcdefghij", "", true},
		{"ZYXWVUTSRQ", "", true},
		{"1234567891", "", false},
		{"7890123456", "", true},
	} {
		if got := WeakPassword(tc.password, tc.email); (got != "") != tc.weak {
			t.Errorf("WeakPassword(%q, %q) = %q, want weak %v", tc.password, tc.email, got, tc.weak)
		}
	}
}

// FuzzWeakPassword checks that any password and email are judged without a panic, and that
// a password holding the whole email is always weak.
func FuzzWeakPassword(f *testing.F) {
	f.Add("1234567890", "ada@example.org")
	f.Add("\xff\xfe0123456789", "")
	f.Fuzz(func(t *testing.T, password, email string) {
		WeakPassword(password, email)
		if email != "" && WeakPassword("x"+email+"y", email) == "" {
			t.Errorf("a password holding the email %q is not weak", email)
		}
	})
}
