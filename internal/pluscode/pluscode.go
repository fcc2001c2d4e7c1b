// Package pluscode owns the Open Location Codes ("plus codes") the service writes: 10 digits,
// an area of about 14 × 14 m, e.g. "849VCWC8+R9".
package pluscode

import olc "github.com/google/open-location-code/go"

// Length is the length in digits of the codes Encode makes.
const Length = 10

// Encode returns the plus code of a point (latitude −90 to 90, longitude −180 to 180).
//
// The upstream encoder writes an invalid code for longitude −180 exactly ("5WM26222+22" for
// −16.8, −180: its own decoder refuses it), while it normalises 180 to −180 correctly. The
// two are one meridian, so −180 is encoded as 180.
func Encode(lat, lon float64) string {
	if lon == -180 {
		lon = 180
	}
	return olc.Encode(lat, lon, Length)
}
