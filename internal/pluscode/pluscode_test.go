package pluscode

import (
	"math"
	"testing"

	olc "github.com/google/open-location-code/go"
)

// checkCode fails unless code is a valid full code whose area holds (lat, lon), with the
// longitude −180 and 180 taken as one meridian.
func checkCode(t *testing.T, lat, lon float64, code string) {
	t.Helper()
	if len(code) != Length+1 {
		t.Fatalf("Encode(%v, %v) = %q: %d characters, want %d", lat, lon, code, len(code), Length+1)
	}
	area, err := olc.Decode(code)
	if err != nil {
		t.Fatalf("Encode(%v, %v) = %q, which does not decode: %v", lat, lon, code, err)
	}
	if lon == 180 {
		lon = -180
	}
	const eps = 1e-9
	latIn := area.LatLo-eps <= lat && (lat < area.LatHi+eps || lat == 90)
	lonIn := area.LngLo-eps <= lon && lon < area.LngHi+eps
	if !latIn || !lonIn {
		t.Errorf("Encode(%v, %v) = %q, whose area %+v does not hold the point", lat, lon, code, area)
	}
}

func TestEncodeEdges(t *testing.T) {
	for _, p := range [][2]float64{
		{-16.8, -180}, {-16.8, 180}, {0, -180}, {90, -180}, {-90, -180}, {90, 180}, {-90, 180},
		{0, 0}, {48.8584, 2.2945}, {-33.8568, 151.2153}, {-16.8, 179.99999}, {-16.8, -179.99999},
		{-39.266666666666666, -179.99999999999937}, {0, -180 + 1.0/lngGridSteps}, {0, -180 + 0.99/lngGridSteps},
	} {
		checkCode(t, p[0], p[1], Encode(p[0], p[1]))
	}
	// Outside the range the upstream encoder's wrapping stands (-190 is 170).
	if got, want := Encode(0, -190), olc.Encode(0, 170, Length); got != want {
		t.Errorf("Encode(0, -190) = %q, want %q", got, want)
	}
	if got, want := Encode(48.858370, 2.294481), "8FW4V75V+8Q"; got != want { // as Google Maps gives it
		t.Errorf("Eiffel Tower: %q, want %q", got, want)
	}
}

// FuzzEncode checks every point of the valid range against the upstream decoder.
func FuzzEncode(f *testing.F) {
	f.Add(-16.8, -180.0)
	f.Add(90.0, 180.0)
	f.Add(0.0, 0.0)
	f.Fuzz(func(t *testing.T, lat, lon float64) {
		if math.IsNaN(lat) || math.IsNaN(lon) || math.Abs(lat) > 90 || math.Abs(lon) > 180 {
			return
		}
		checkCode(t, lat, lon, Encode(lat, lon))
	})
}
