package api

import (
	"encoding/json"
	"testing"
)

func TestPlacesAppendFloat(t *testing.T) {
	for _, v := range []float64{0, -33.8688, 151.2093, 90, -180, 1e-7, 12.3456789012345} {
		b := append(placesAppendFloat([]byte{'{'}, true, "x", v), '}')
		var got struct{ X float64 }
		if err := json.Unmarshal(b, &got); err != nil || got.X != v {
			t.Errorf("%v: %s (%v)", v, b, err)
		}
	}
}
