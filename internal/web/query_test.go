package web

import (
	"net/url"
	"strings"
	"testing"
)

func TestQueryValue(t *testing.T) {
	tests := []struct {
		raw, name, want string
		ok              bool
	}{
		{"key=abc", "key", "abc", true},
		{"ip=1.2.3.4&key=abc", "key", "abc", true},
		{"key=first&key=second", "key", "first", true},
		{"key=", "key", "", true},
		{"key", "key", "", true},
		{"keys=abc", "key", "", false},
		{"", "key", "", false},
		{"k%65y=a%2Bb", "key", "a+b", true},
		{"key=a+b", "key", "a b", true},
		{"key=%zz&key=ok", "key", "ok", true},
		{"key=a;b&key=c", "key", "c", true},
		{"&&key=x&", "key", "x", true},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, ok := QueryValue(tt.raw, tt.name)
			if got != tt.want || ok != tt.ok {
				t.Errorf("QueryValue(%q, %q) = %q, %v; want %q, %v", tt.raw, tt.name, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestQueryValueNoAllocs(t *testing.T) {
	raw := "ip=8.8.8.8&localityLanguage=en&key=0123456789abcdef0123456789abcdef"
	n := testing.AllocsPerRun(100, func() {
		if _, ok := QueryValue(raw, "key"); !ok {
			t.Fatal("missing")
		}
	})
	if n != 0 {
		t.Errorf("QueryValue allocated %v times per run, want 0", n)
	}
}

// FuzzQueryValue checks QueryValue against the slow, obviously correct reference: url.ParseQuery
// then Get, on every query ParseQuery accepts without error; and RawQueryValue against
// QueryValue.
func FuzzQueryValue(f *testing.F) {
	for _, s := range []string{"key=abc", "a=1&key=%41", "key=a+b&key=c", "k%65y=v", "key", "=x&key=", "key=%", "x=;&key=1"} {
		f.Add(s, "key")
	}
	f.Fuzz(func(t *testing.T, raw, name string) {
		got, ok := QueryValue(raw, name)
		// RawQueryValue is the same pair's value before decoding.
		esc, escOK := RawQueryValue(raw, name)
		if dec, err := url.QueryUnescape(esc); escOK != ok || ok && (err != nil || dec != got) {
			t.Fatalf("RawQueryValue(%q, %q) = %q, %v; QueryValue gives %q, %v", raw, name, esc, escOK, got, ok)
		}
		vals, err := url.ParseQuery(raw)
		if err != nil {
			return // reference disagrees by design on malformed pairs; QueryValue must only not panic
		}
		want, wantOK := vals[name]
		if ok != wantOK || (ok && got != want[0]) {
			t.Fatalf("QueryValue(%q, %q) = %q, %v; ParseQuery gives %q", raw, name, got, ok, want)
		}
	})
}

func TestCheckQuery(t *testing.T) {
	tests := []struct {
		raw  string
		want string // substring of the error; "" for none
	}{
		{"", ""},
		{"ip=8.8.8.8&key=abc", ""},
		{"name=a%2Bb&x=%41%e9", ""},
		{"&&a=1&", ""},
		{"ip=8.8.8.8%", `"ip=8.8.8.8%" has a '%'`},
		{"ip=%zz", `"ip=%zz" has a '%'`},
		{"ip=%4", `"ip=%4"`},
		{"k%y=1", `"k%y=1"`},
		{"a=1&b=2;c=3", `not ';' (in "b=2;c=3")`},
		{"a=" + strings.Repeat("x", 100) + "%", `"... has a '%'`},
		// A key beside the mistake is not repeated in the answer.
		{"code=IE;key=ipa_ABCDEFGH", `not ';' (in "code=IE;key=REDACTED")`},
		{"key=ipa_ABCDEFGH%", `"key=REDACTED" has a '%'`},
	}
	for _, tt := range tests {
		err := CheckQuery(tt.raw)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("CheckQuery(%q) = %v, want nil", tt.raw, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("CheckQuery(%q) = %v, want an error containing %q", tt.raw, err, tt.want)
		}
	}
}

// FuzzCheckQuery checks CheckQuery against url.ParseQuery: it refuses exactly the queries
// that ParseQuery reports an error for.
func FuzzCheckQuery(f *testing.F) {
	for _, s := range []string{"a=1", "a=%", "a=%4", "a=%41", "a;b", "=%zz", "%=1", "a=1&&b", "+=%2b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		_, perr := url.ParseQuery(raw)
		if err := CheckQuery(raw); (err == nil) != (perr == nil) {
			t.Fatalf("CheckQuery(%q) = %v; ParseQuery's error: %v", raw, err, perr)
		}
	})
}

func BenchmarkQueryValue(b *testing.B) {
	raw := "ip=8.8.8.8&localityLanguage=en&key=0123456789abcdef0123456789abcdef"
	for b.Loop() {
		QueryValue(raw, "key")
	}
}
