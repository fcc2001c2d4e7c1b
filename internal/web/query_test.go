package web

import (
	"net/url"
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
// then Get, on every query ParseQuery accepts without error.
func FuzzQueryValue(f *testing.F) {
	for _, s := range []string{"key=abc", "a=1&key=%41", "key=a+b&key=c", "k%65y=v", "key", "=x&key=", "key=%", "x=;&key=1"} {
		f.Add(s, "key")
	}
	f.Fuzz(func(t *testing.T, raw, name string) {
		got, ok := QueryValue(raw, name)
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

func BenchmarkQueryValue(b *testing.B) {
	raw := "ip=8.8.8.8&localityLanguage=en&key=0123456789abcdef0123456789abcdef"
	for b.Loop() {
		QueryValue(raw, "key")
	}
}
