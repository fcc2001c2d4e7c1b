package web

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
)

func TestObscurePersonal(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"email=ada%40example.org&next=%2Faccount%2F", "email=REDACTED%40example.org&next=%2Faccount%2F"},
		{"email=ada@example.org;x=1", "email=REDACTED@example.org;x=1"},
		{"email=no-at-sign", "email=REDACTED"},
		{"latitude=48.85661399999999&longitude=2.3522219", "latitude=48.85&longitude=2.35"},
		{"longitude=-0.1278&latitude=51.5074&localityLanguage=de", "longitude=-0.12&latitude=51.50&localityLanguage=de"},
		{"latitude=1&longitude=-0.001", "latitude=1.00&longitude=-0.00"},
		// Written as the handlers would still read them.
		{"lat%69tude=48.856614&%6congitude=2.352222", "lat%69tude=48.85&%6congitude=2.35"},
		{"latitude=48%2E856614&longitude=2%2e352222", "latitude=48.85&longitude=2.35"},
		{"latitude=488566.14e-4&longitude=2352222E-6", "latitude=48.85&longitude=2.35"},
		{"latitude=48.%38%35%36%36%31%34", "latitude=48.85"},
		{"latitude=+48.856614", "latitude=48.85"},
		// Not numbers: still perhaps positions, so not logged as sent.
		{"latitude=48,856614&longitude=x", "latitude=unparsed&longitude=unparsed"},
		{"latitude=NaN&longitude=%zz", "latitude=unparsed&longitude=unparsed"},
		{"latitude=1e307&longitude=-Inf", "latitude=unparsed&longitude=unparsed"},
		// Not coordinates.
		{"ip=8.8.8.8&altitude=123.456", "ip=8.8.8.8&altitude=123.456"},
		{"mylatitude=1.23456&Latitude=1.23456", "mylatitude=1.23456&Latitude=1.23456"},
		{"ip=2001%3Adb8%3A%3A1", "ip=2001%3Adb8%3A%3A1"},
		{"latitude", "latitude"},
		{"latitude=&longitude=%20", "latitude=&longitude="},
		{"", ""},
		// Phone numbers: the first three digits stay, whatever the number's script.
		{"number=%2B353+1+234+5678&countryCode=IE", "number=%2B353+x+xxx+xxxx&countryCode=IE"},
		{"number=0871234567&countryCode=IE", "number=087xxxxxxx&countryCode=IE"},
		{"number=+1+650+253+0000", "number=+1+65x+xxx+xxxx"}, // a + that arrived as a space
		{"n%75mber=1-800-FLOWERS", "n%75mber=1-80x-xxxxxxx"},
		{"number=%EF%BC%93%EF%BC%95%EF%BC%93%EF%BC%91%EF%BC%92", "number=%EF%BC%93%EF%BC%95%EF%BC%93xx"},
		{"number=12", "number=12"},
		{"number=%zz123456", "number=unparsed"},
		{"number=", "number="},
		{"numbers=0871234567&Number=0871234567", "numbers=0871234567&Number=0871234567"},
		// Separated by semicolons, which the handlers refuse and the log still records.
		{"x=1;number=0871234567", "x=1;number=087xxxxxxx"},
		{"countryCode=IE&x=1;number=0871234567;latitude=48.856614", "countryCode=IE&x=1;number=087xxxxxxx;latitude=48.85"},
		{"ip=8.8.8.8;key=x", "ip=8.8.8.8;key=x"},
	} {
		if got := ObscurePersonal(tc.in); got != tc.want {
			t.Errorf("ObscurePersonal(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, q := range []string{"ip=8.8.8.8&localityLanguage=de", "ip=2001%3Adb8%3A%3A1&localityLanguage=de&key=ipa_x", "code=IE"} {
		if n := testing.AllocsPerRun(100, func() { ObscurePersonal(q) }); n != 0 {
			t.Errorf("%v allocations for %q, which has nothing personal", n, q)
		}
	}
}

// FuzzObscurePersonal: whatever the query, a coordinate the handlers would read from the
// logged query has at most two decimal places, and a phone number at most three digits.
func FuzzObscurePersonal(f *testing.F) {
	f.Add("latitude=48.85661399999999&longitude=2.3522219")
	f.Add("lat%69tude=4885661e-5&longitude=1.")
	f.Add("number=%2B353+1+234+5678&n%75mber=%EF%BC%93%EF%BC%95%EF%BC%93%EF%BC%91")
	f.Add("x=1;number=0871234567;latitude=48.856614")
	f.Fuzz(func(t *testing.T, raw string) {
		got := ObscurePersonal(raw)
		// What a reader of the log would take for a number after a ';' counts as well.
		got = strings.ReplaceAll(got, ";", "&")
		if v, ok := QueryValue(got, "number"); ok && v != "unparsed" {
			digits := 0
			for _, r := range v {
				if unicode.IsDigit(r) || unicode.IsLetter(r) && r != 'x' {
					digits++
				}
			}
			if digits > numberDigitsKept {
				t.Fatalf("number logged as %q from %q", v, raw)
			}
		}
		for _, name := range []string{"latitude", "longitude"} {
			v, ok := QueryValue(got, name)
			if !ok {
				continue
			}
			if v == "unparsed" || v == "" {
				continue
			}
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				t.Fatalf("%s logged as %q from %q", name, v, raw)
			}
			if _, frac, ok := strings.Cut(v, "."); !ok || len(frac) != 2 {
				t.Fatalf("%s logged as %q from %q", name, v, raw)
			}
		}
	})
}
