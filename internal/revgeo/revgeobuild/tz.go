package revgeobuild

import (
	"fmt"
	"io/fs"
	"slices"

	pb "github.com/ringsaturn/tzf/gen/go/tzf/v1"
	"google.golang.org/protobuf/proto"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// timeZones returns the time zone polygons of the tzf-rel-lite source (the
// timezone-boundary-builder release "with oceans", reduced by tzf), their names in the
// order of their features, and the tzdata release they follow.
func timeZones(fsys fs.FS) (names []string, shapes []revgeo.Shape, version string, err error) {
	var tzs pb.Timezones
	if err := parseFile(fsys, build.TZFFile, func(b []byte) error { return proto.Unmarshal(b, &tzs) }); err != nil {
		return nil, nil, "", err
	}
	return tzShapes(&tzs)
}

// tzShapes converts tzf's protobuf time zones. Zones are sorted by name, so feature order,
// and which zone wins where two overlap (the first), does not depend on the file's order.
func tzShapes(tzs *pb.Timezones) ([]string, []revgeo.Shape, string, error) {
	byName := map[string]*pb.Timezone{}
	var names []string
	for _, z := range tzs.GetTimezones() {
		if z.GetName() == "" {
			return nil, nil, "", fmt.Errorf("tzf: zone without a name")
		}
		if _, dup := byName[z.GetName()]; dup {
			return nil, nil, "", fmt.Errorf("tzf: zone %q twice", z.GetName())
		}
		byName[z.GetName()] = z
		names = append(names, z.GetName())
	}
	slices.Sort(names)
	var shapes []revgeo.Shape
	for i, name := range names {
		s := revgeo.Shape{Feature: i}
		for _, poly := range byName[name].GetPolygons() {
			r, err := tzRing(name, poly.GetPoints())
			if err != nil {
				return nil, nil, "", err
			}
			s.Rings = append(s.Rings, r)
			for _, h := range poly.GetHoles() {
				r, err := tzRing(name, h.GetPoints())
				if err != nil {
					return nil, nil, "", err
				}
				s.Rings = append(s.Rings, r)
			}
		}
		shapes = append(shapes, s)
	}
	return names, shapes, tzs.GetVersion(), nil
}

func tzRing(zone string, points []*pb.Point) ([]revgeo.Point, error) {
	r := make([]revgeo.Point, 0, len(points))
	for _, p := range points {
		// float32 → float64 is exact, so a vertex two zones share stays identical.
		lat, lon := float64(p.GetLat()), float64(p.GetLng())
		if revgeo.Validate(lat, lon) != nil {
			return nil, fmt.Errorf("tzf: %s: point (%v, %v) off the globe", zone, lat, lon)
		}
		r = append(r, revgeo.Point{Lat: lat, Lon: lon})
	}
	return r, nil
}
