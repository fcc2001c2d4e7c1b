package web

import "testing"

func TestCoarsenCoordinates(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"latitude=48.85661399999999&longitude=2.3522219", "latitude=48.85&longitude=2.35"},
		{"longitude=-0.1278&latitude=51.5074&localityLanguage=de", "longitude=-0.12&latitude=51.50&localityLanguage=de"},
		{"latitude=1&longitude=2.3", "latitude=1&longitude=2.3"},
		{"latitude=1.23456e2&longitude=x", "latitude=1.23e2&longitude=x"}, // what follows stays
		{"latitude=1.2345.678", "latitude=1.23.678"},
		{"ip=8.8.8.8&altitude=123.456", "ip=8.8.8.8&altitude=123.456"},
		{"mylatitude=1.23456", "mylatitude=1.23456"},
		{"latitude", "latitude"},
		{"", ""},
	} {
		if got := CoarsenCoordinates(tc.in); got != tc.want {
			t.Errorf("CoarsenCoordinates(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { CoarsenCoordinates("ip=8.8.8.8&localityLanguage=de") }); n != 0 {
		t.Errorf("%v allocations for a query without coordinates", n)
	}
}

func FuzzCoarsenCoordinates(f *testing.F) {
	f.Add("latitude=48.85661399999999&longitude=2.3522219")
	f.Add("latitude=.&longitude=1.")
	f.Fuzz(func(t *testing.T, raw string) {
		got := CoarsenCoordinates(raw)
		if len(got) > len(raw) {
			t.Errorf("CoarsenCoordinates(%q) = %q is longer", raw, got)
		}
		if CoarsenCoordinates(got) != got {
			t.Errorf("not idempotent on %q: %q", raw, got)
		}
	})
}
