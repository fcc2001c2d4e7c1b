package ipgeobuild

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// AreasSectionName is the name of the precomputed confidence areas' section.
const AreasSectionName = "areas"

// netinfoSection is the section the announced prefixes come from (netinfobuild.SectionName;
// not imported, so that this package does not depend on the network data's builder).
const netinfoSection = "netinfo"

// AreasSection returns the derived section of precomputed confidence areas
// (ipgeo.DB.EncodeAreas): the service area of every announced prefix of the netinfo section
// over the ipgeo section's networks, and every record's accuracy circle.
func AreasSection() build.Section {
	return build.Section{Name: AreasSectionName, Uses: []string{SectionName, netinfoSection}, Derive: DeriveAreas}
}

// DeriveAreas makes the areas section from the ipgeo and netinfo sections' bytes.
func DeriveAreas(ctx context.Context, sections map[string][]byte, rep *build.Report) ([]byte, error) {
	geo, err := ipgeo.Decode(sections[SectionName])
	if err != nil {
		return nil, fmt.Errorf("ipgeobuild: areas: %w", err)
	}
	nets, err := netinfo.Decode(sections[netinfoSection])
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
	rep.Count(AreasSectionName, "announced prefixes", len(announced))
	rep.Count(AreasSectionName, "prefix estimates", prefixes)
	rep.Count(AreasSectionName, "distinct polygons", polygons)
	return b, nil
}
