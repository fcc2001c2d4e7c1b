package api

import (
	"encoding/json"
	"testing"

	"github.com/ipatlas/ipatlas/internal/web"
)

func TestPlacesAppendStringMatchesMarshal(t *testing.T) {
	for _, s := range []string{
		"", "Sydney", `quote " and \ backslash`, "tab\tnew\nline\rcr", "\x00\x01\x1f\x7f", "\b\f",
		"<&>", "Zürich", "東京都", "🇦🇺", "\u2028\u2029", "bad \xff utf8 \xc3", "\xed\xa0\x80",
	} {
		want, err := web.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := web.AppendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}

func FuzzPlacesAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\u2028", "\xff", "Łódź\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := web.Marshal(s)
		if got := web.AppendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	})
}

func TestPlacesAppendFloat(t *testing.T) {
	for _, v := range []float64{0, -33.8688, 151.2093, 90, -180, 1e-7, 12.3456789012345} {
		b := append(placesAppendFloat([]byte{'{'}, true, "x", v), '}')
		var got struct{ X float64 }
		if err := json.Unmarshal(b, &got); err != nil || got.X != v {
			t.Errorf("%v: %s (%v)", v, b, err)
		}
	}
}
