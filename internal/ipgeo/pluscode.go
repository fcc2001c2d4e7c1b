package ipgeo

import olc "github.com/google/open-location-code/go"

// PlusCodeLength is the length in digits of the plus codes this package makes: 10 digits,
// an area of about 14 × 14 m, e.g. "849VCWC8+R9".
const PlusCodeLength = 10

// PlusCode returns the Open Location Code of a point, PlusCodeLength digits long.
func PlusCode(lat, lon float64) string { return olc.Encode(lat, lon, PlusCodeLength) }

// plusCoder makes the plus codes of the records at decode time, encoding each point once:
// many records share one.
type plusCoder struct{ seen map[[2]float64]string }

func (p *plusCoder) code(lat, lon float64) string {
	if p.seen == nil {
		p.seen = map[[2]float64]string{}
	}
	k := [2]float64{lat, lon}
	if s, ok := p.seen[k]; ok {
		return s
	}
	s := PlusCode(lat, lon)
	p.seen[k] = s
	return s
}
