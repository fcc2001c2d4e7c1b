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
	// The ring's longitudes made continuous (no step over 180°): first only to see whether
	// it crosses, so that the common case allocates nothing.
	continuous := func(each func(i int, lon int64)) (last int64, crosses bool) {
		l := int64(ring[1])
		each(0, l)
		for i := 1; i <= n; i++ {
			d := int64(ring[2*i+1]) - int64(ring[2*i-1])
			switch {
			case d > half:
				d -= full
			case d < -half:
				d += full
			}
			l += d
			crosses = crosses || l >= half || l < -half
			each(i, l)
		}
		return l, crosses
	}
	last, crosses := continuous(func(int, int64) {})
	if !crosses || last != int64(ring[1]) {
		return v
	}
	lons := make([]int64, n+1)
	continuous(func(i int, l int64) { lons[i] = l })
	// The meridian crossed, in the continuous longitudes: +180° or -180°.
	edge := int64(half)
	for _, l := range lons {
		if l < -half {
			edge = -half
			break
		}
	}
	lats := make([]int64, n+1)
	for i := range lats {
		lats[i] = int64(ring[2*i])
	}
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
			aLat, aLon, bLat, bLon := lats[i], lons[i], lats[i+1], lons[i+1]
			if inside(aLon) {
				add(aLat, aLon)
			}
			if inside(aLon) != inside(bLon) {
				lat := aLat + (bLat-aLat)*(edge-aLon)/(bLon-aLon)
				add(lat, edge)
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
