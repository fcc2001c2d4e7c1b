package account

import (
	"net/mail"
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
		{"x@" + strings.Repeat(strings.Repeat("a", 63)+".", 3) + strings.Repeat("b", 62), false}, // 256 bytes
		{"x@" + strings.Repeat(strings.Repeat("a", 63)+".", 3) + strings.Repeat("b", 60), true},  // 254 bytes
		{"x@" + strings.Repeat("a", 64) + ".org", false},                                         // a label over 63 bytes
		// The domain is a host name.
		{"x@localhost", true},
		{"ünï@exämple.org", true},
		{"x@sub-domain.example.co.uk", true},
		{"x@123.example.org", true},
		{"bob@[127.0.0.1]", false},
		{"bob@-example-.org", false},
		{"bob@example-.org", false},
		{"bob@exa_mple.org", false},
		{"bob@123", false},
		{"bob@example.123", false},
		{"bob@example..org", false},
		{"bob@example.org.", false},
		{"x@उदाहरण.भारत", true},        // combining marks within labels
		{"x@\u0301example.org", false}, // but not first
		{"x@example.１２３", false},       // digits of any script
	} {
		if got := ValidEmail(NormalizeEmail(tc.in)); got != tc.want {
			t.Errorf("ValidEmail(NormalizeEmail(%q)) = %v, want %v", tc.in, got, tc.want)
		}
	}
	// Log-in takes what accounts made before the host-name rule may have.
	for _, email := range []string{"bob@[127.0.0.1]", "a@mail_srv.corp", "x@example.123"} {
		if !PlainEmail(email) || ValidEmail(email) {
			t.Errorf("%q: PlainEmail %v, ValidEmail %v; want true, false", email, PlainEmail(email), ValidEmail(email))
		}
	}
}

// FuzzValidEmail checks that any input is judged without a panic, and that an address
// judged valid is one mail.ParseAddress reads back unchanged, at a host name.
func FuzzValidEmail(f *testing.F) {
	for _, s := range []string{"you@example.org", "a@b", "bob@[127.0.0.1]", "ünï@exämple.org", "x@-a.org", "\"q\"@x.org", "x@a..b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidEmail(s) {
			return
		}
		a, err := mail.ParseAddress(s)
		at := strings.LastIndexByte(s, '@')
		if err != nil || a.Address != s || len(s) > 254 || at < 0 || strings.ContainsAny(s[at+1:], "[]_ ") {
			t.Errorf("ValidEmail(%q) is true: parsed %v, %v", s, a, err)
		}
	})
}
