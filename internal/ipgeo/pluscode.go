package ipgeo

import "github.com/ipatlas/ipatlas/internal/pluscode"

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
	s := pluscode.Encode(lat, lon)
	p.seen[k] = s
	return s
}
