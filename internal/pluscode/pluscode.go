// Package pluscode owns the Open Location Codes ("plus codes") the service writes: 10 digits,
// an area of about 14 × 14 m, e.g. "849VCWC8+R9".
package pluscode

import (
	"math"

	olc "github.com/google/open-location-code/go"
)

// Length is the length in digits of the codes Encode makes.
const Length = 10

// Encode returns the plus code of a point (latitude −90 to 90, longitude −180 to 180).
//
// The upstream encoder writes an invalid code for the westernmost column of cells, longitude
// −180 up to one step of its integer grid east of it ("5WM26222+22" for −16.8, −180, and
// likewise for −179.99999999999937: its own decoder refuses both), because it wraps an
// integer longitude of 0 as if it were negative. It encodes 180 correctly, as that same
// column, so those longitudes are encoded as 180.
func Encode(lat, lon float64) string {
	if math.Floor(lon*lngGridSteps) == -180*lngGridSteps {
		lon = 180
	}
	return olc.Encode(lat, lon, Length)
}

// lngGridSteps is the upstream encoder's integer steps per degree of longitude
// (finalLngPrecision: 8000 for the pairs × 4⁵ for the grid digits); its rounding is
// repeated here to find the longitudes it mis-wraps.
const lngGridSteps = 8000 * 1024
