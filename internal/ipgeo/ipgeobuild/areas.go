package ipgeobuild

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// DeriveAreas makes the snapshot's precomputed confidence areas (ipgeo.DB.EncodeAreas) from
// the bytes of the ipgeo and netinfo sections: the service area of every announced prefix
// over the geolocation's networks, and every record's accuracy circle. It decodes what it made
// once more, so that a section the server would refuse fails the update instead.
func DeriveAreas(ctx context.Context, geoSection, netSection []byte, rep Reporter) ([]byte, error) {
	geo, err := ipgeo.Decode(geoSection)
	if err != nil {
		return nil, fmt.Errorf("ipgeobuild: areas: %w", err)
	}
	nets, err := netinfo.Decode(netSection)
	if err != nil {
		return nil, fmt.Errorf("ipgeobuild: areas: %w", err)
	}
	var announced []netip.Prefix
	for n := range nets.Announced() {
		announced = append(announced, n.BGPPrefix)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b := geo.EncodeAreas(announced)
	withAreas, err := geo.WithAreas(b)
	if err != nil {
		return nil, fmt.Errorf("ipgeobuild: areas do not decode: %w", err)
	}
	prefixes, polygons := withAreas.AreaCounts()
	rep.Count("areas", "announced prefixes", len(announced))
	rep.Count("areas", "prefix estimates", prefixes)
	rep.Count("areas", "distinct polygons", polygons)
	return b, nil
}
