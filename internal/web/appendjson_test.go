package web

import (
	"strings"
	"testing"
)

// appendJSONCases hold every character class AppendJSONString treats differently, alone
// and at every offset of a run long enough for the eight-byte scan.
func appendJSONCases() []string {
	cases := []string{
		"", "Sydney", `quote " and \ backslash`, "tab\tnew\nline\rcr", "\x00\x01\x1f\x7f", "\b\f",
		"<&>", "Zürich", "東京都", "🇦🇺", "\u2028\u2029", "bad \xff utf8 \xc3", "\xed\xa0\x80",
		"Baden-Württemberg", "Provence-Alpes-Côte d'Azur", "(UTC-06:00) Central Time",
	}
	for _, special := range []string{"\"", "\\", "\x00", "\x1f", " ", "~", "\x7f", "é", "\u2028", "\xff", "東"} {
		for at := 0; at <= 17; at++ {
			cases = append(cases, strings.Repeat("a", at)+special+strings.Repeat("b", 17-at))
		}
		// Every length up to two words, with the character at every offset: the short
		// strings' one-load checks and the last word's overlapping one.
		for n := 1; n <= 16; n++ {
			for at := 0; at < n; at++ {
				cases = append(cases, strings.Repeat("a", at)+special+strings.Repeat("b", n-1-at))
			}
		}
	}
	return cases
}

func TestAppendJSONStringMatchesMarshal(t *testing.T) {
	for _, s := range appendJSONCases() {
		want, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}

func TestPlainASCII8(t *testing.T) {
	for c := range 256 {
		for at := range 8 {
			b := []byte("abcdefgh")
			b[at] = byte(c)
			want := c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
			if got := plainASCII8(load8(string(b), 0)); got != want {
				t.Errorf("byte %#x at %d: plain %v, want %v", c, at, got, want)
			}
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range appendJSONCases() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := Marshal(s)
		if got := AppendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	})
}

// BenchmarkAppendJSONString appends the strings of a typical geolocation answer: names,
// codes, descriptions and a Japanese place name.
func BenchmarkAppendJSONString(b *testing.B) {
	ss := []string{
		"United States", "United States of America (the)", "the United States of America", "English",
		"Americas/Northern America", "US Dollar", "North America", "High income", "Q30",
		"America/Chicago", "(UTC-06:00) Central Time", "Central Daylight Time", "CDT", "-05",
		"country", "continent", "time zone", "principal subdivision", "Google LLC", "GOOGLE",
		"ARIN", "legacy", "Baden-Württemberg", "東京都", "moderate",
	}
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		buf = buf[:0]
		for _, s := range ss {
			buf = AppendJSONString(buf, s)
		}
	}
}
