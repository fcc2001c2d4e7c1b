package ipgeo

// splitAtAntimeridian replaces the closed ring at v[start:] (latitude, longitude pairs in
// 10⁻⁵ degrees, longitudes in [-180°, 180°)) that crosses the antimeridian by its two parts,
// one on each side, each closed and each touching ±180°. A ring read in a plain plane of
// latitude and longitude, as a flat map (EPSG:4326) and GeoJSON readers take it, must not
// cross there: it would cover the rest of the world instead of the area (RFC 7946, 3.1.9).
// A ring that does not cross is left as it is, and so is one around a pole (its longitudes
// do not come back to where they started), which a split at ±180° cannot describe.
func splitAtAntimeridian(v []int32, start int) []int32 {
	const half, full = 180e5, 360e5
	ring := v[start:]
	n := len(ring)/2 - 1 // points without the closing one
	if n < 3 {
		return v
	}
	// Where the ring crosses, its stored longitudes step across ±180°: out and back for an
	// area beside the antimeridian, once (net) for one around a pole. The common case, no
	// step, allocates nothing.
	wrap := func(d int64) int64 {
		switch {
		case d > half:
			return -full
		case d < -half:
			return full
		}
		return 0
	}
	steps, net := 0, int64(0)
	for i := 1; i <= n; i++ {
		if w := wrap(int64(ring[2*i+1]) - int64(ring[2*i-1])); w != 0 {
			steps, net = steps+1, net+w
		}
	}
	if steps == 0 || net != 0 {
		return v
	}
	// The longitudes made continuous, and the meridian they cross there: +180° or -180°.
	lons := make([]int64, n+1)
	lons[0] = int64(ring[1])
	edge := int64(half)
	for i := 1; i <= n; i++ {
		d := int64(ring[2*i+1]) - int64(ring[2*i-1])
		lons[i] = lons[i-1] + d + wrap(d)
		if lons[i] < -half {
			edge = -half
		}
	}
	lat := func(i int) int64 { return int64(ring[2*i]) }
	// Each side of edge by Sutherland–Hodgman against the one line; the hull is convex in
	// these coordinates, so each side is one ring.
	side := func(east bool, shift int64) []int32 {
		inside := func(l int64) bool { return (l >= edge) == east }
		var out []int32
		add := func(lat, lon int64) {
			// A vertex on the line is also where its edges cross it: keep it once.
			p := [2]int32{int32(lat), int32(lon + shift)}
			if k := len(out); k >= 2 && out[k-2] == p[0] && out[k-1] == p[1] {
				return
			}
			out = append(out, p[0], p[1])
		}
		for i := range n {
			aLat, aLon, bLat, bLon := lat(i), lons[i], lat(i+1), lons[i+1]
			if inside(aLon) {
				add(aLat, aLon)
			}
			if inside(aLon) != inside(bLon) {
				add(aLat+(bLat-aLat)*(edge-aLon)/(bLon-aLon), edge)
			}
		}
		for k := len(out); k >= 4 && out[k-2] == out[0] && out[k-1] == out[1]; k = len(out) {
			out = out[:k-2] // the ring came back to its first point on the line
		}
		if len(out) < 6 {
			return nil // the ring only touches the line from the other side
		}
		return append(out, out[0], out[1])
	}
	// The side beyond edge is shifted back into [-180°, 180°]: the east of +180° by -360°,
	// the west of -180° by +360°.
	west, east := side(false, 0), side(true, -full)
	if edge < 0 {
		west, east = side(false, full), side(true, 0)
	}
	v = v[:start]
	v = append(v, west...)
	return append(v, east...)
}
