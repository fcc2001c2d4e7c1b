package revgeo

import "math"

// Planar geometry on a fixed integer grid.
//
// Every coordinate the engine keeps is an integer number of grid units of 1e-5 degree
// (about 1.1 m), the precision of the upstream GeoJSON and GeoNames files, so all the
// geometric predicates below are exact in int64 arithmetic: there is no rounding in deciding
// which side of an edge a point lies on. Query points are rounded to the same grid.
//
// Polygon edges are straight lines in the longitude/latitude plane, as GeoJSON (RFC 7946,
// section 3.1.1) and the shapefiles it is converted from draw them; this is why the engine
// does not use s2's geodesic edges, which bend away from the drawn line on long edges (the
// 49th parallel between the United States and Canada is a few long edges that a great circle
// would bow northward by tens of kilometres).

// unitsPerDegree is the grid resolution: coordinates are kept in units of 1e-5 degree.
const unitsPerDegree = 1e5

// The quadtree's root cell is the square [rootMin, rootMin+rootSize)² in grid units. Its size
// is a power of two so that every cell down to depth 25 has integer corners and centre, which
// keeps the reference points of the index on the grid too. It covers longitudes and latitudes
// of ±335°, more than the ±180° a coordinate can take.
const (
	rootLog  = 26
	rootSize = int64(1) << rootLog
	rootMin  = -rootSize / 2
)

// vtx is a point on the grid: x is longitude, y latitude, both in grid units.
type vtx struct{ x, y int32 }

// toUnits rounds degrees to grid units.
func toUnits(deg float64) int32 { return int32(math.Round(deg * unitsPerDegree)) }

// orient returns twice the signed area of the triangle a, b, c: positive when c lies to the
// left of the directed line a→b, negative to the right, zero when the three are collinear.
// Grid coordinates are below 2^25 in magnitude, so the products stay far inside int64.
func orient(ax, ay, bx, by, cx, cy int64) int64 {
	return (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
}

// crosses reports whether the segment r→p crosses the edge a→b, where p stands for the point
// p + (ε, ε²), moved an infinitesimal ε east and ε² north. Nothing moved so lies on a line
// through two grid points unless it is one of them, so the crossing count is exact for the
// moved point: a point on a boundary that polygons share, a time zone meridian at sea or a
// land border, is inside exactly one of them, the one east of it (north of an east-west
// edge), whichever way each ring is drawn. r must lie on no edge, as reference points do.
// Only a zero orientation, rare, takes the extra branch (see movedSign).
//
// Build-time segments between reference points meet no vertex and end on no edge, so for them
// the move changes nothing.
func crosses(rx, ry, px, py int64, a, b vtx) bool {
	ax, ay, bx, by := int64(a.x), int64(a.y), int64(b.x), int64(b.y)
	// Do a and b lie on different sides of the line r→p? Moving p by (ε, ε²) adds
	// ε(cy-ry) - ε²(cx-rx) to orient(r, p, c).
	oa, ob := orient(rx, ry, px, py, ax, ay), orient(rx, ry, px, py, bx, by)
	if oa == 0 {
		oa = movedSign(ay-ry, rx-ax)
	}
	if ob == 0 {
		ob = movedSign(by-ry, rx-bx)
	}
	if (oa > 0) == (ob > 0) {
		return false
	}
	// Do r and p lie on different sides of the line a→b? Moving p adds ε(ay-by) + ε²(bx-ax)
	// to orient(a, b, p).
	op := orient(ax, ay, bx, by, px, py)
	if op == 0 {
		op = movedSign(ay-by, bx-ax)
	}
	return (orient(ax, ay, bx, by, rx, ry) > 0) != (op > 0)
}

// movedSign is the sign of an orientation that is zero before the move of crosses: that of
// its ε coefficient, else of its ε² one.
func movedSign(eps, eps2 int64) int64 {
	if eps != 0 {
		return eps
	}
	return eps2
}

// onSegment reports whether the point c lies on the closed segment a→b.
func onSegment(ax, ay, bx, by, cx, cy int64) bool {
	if orient(ax, ay, bx, by, cx, cy) != 0 {
		return false
	}
	return min(ax, bx) <= cx && cx <= max(ax, bx) && min(ay, by) <= cy && cy <= max(ay, by)
}

// segmentTouchesBox reports whether the segment a→b meets the closed box [x0,x1]×[y0,y1]. It
// is the separating-axis test: the boxes' projections on both axes overlap and the four
// corners do not all lie strictly on one side of the segment's line.
func segmentTouchesBox(a, b vtx, x0, y0, x1, y1 int64) bool {
	ax, ay, bx, by := int64(a.x), int64(a.y), int64(b.x), int64(b.y)
	if max(ax, bx) < x0 || min(ax, bx) > x1 || max(ay, by) < y0 || min(ay, by) > y1 {
		return false
	}
	var pos, neg bool
	for _, c := range [4][2]int64{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
		switch o := orient(ax, ay, bx, by, c[0], c[1]); {
		case o > 0:
			pos = true
		case o < 0:
			neg = true
		default:
			return true
		}
	}
	return pos && neg
}

// refOffset is the k-th candidate offset of a cell's reference point from the cell's centre,
// in grid units. Candidate 0 is the centre itself; the build tries them in order and keeps
// the first that lies on no edge and whose path from the parent's reference point passes
// through no vertex (see buildIndex). Offsets stay within ±3 units, and the smallest cell is
// wider than that, so the reference point is always inside its cell.
func refOffset(k uint32) (dx, dy int64) {
	k %= refCandidates
	return int64(k%7+3)%7 - 3, int64(k/7+3)%7 - 3
}

// refCandidates is the number of distinct reference-point offsets.
const refCandidates = 49

// Sphere geometry for the nearest-place search. Places are unit vectors in three dimensions,
// where the straight-line (chord) distance grows with the great-circle distance, so a k-d
// tree over the vectors finds the nearest place on the sphere.

// earthRadiusKm is the mean radius of the Earth (IUGG), used to turn angles into kilometres.
const earthRadiusKm = 6371.0088

// unitVector returns the unit vector of a latitude and longitude in degrees. The explicit
// float64 conversions stop the compiler from fusing multiply-adds, so the vectors, and the
// k-d tree order built from them, are the same on every platform.
func unitVector(latDeg, lonDeg float64) [3]float64 {
	lat, lon := latDeg*(math.Pi/180), lonDeg*(math.Pi/180)
	cl := math.Cos(lat)
	return [3]float64{float64(cl * math.Cos(lon)), float64(cl * math.Sin(lon)), math.Sin(lat)}
}

// chordForKm returns the squared chord length of a great-circle distance in kilometres.
func chordForKm(km float64) float64 {
	c := 2 * math.Sin(km/(2*earthRadiusKm))
	return c * c
}

// kmForChord2 returns the great-circle distance in kilometres of a squared chord length.
func kmForChord2(c2 float64) float64 {
	c := math.Sqrt(c2) / 2
	if c > 1 {
		c = 1
	}
	return 2 * earthRadiusKm * math.Asin(c)
}

func dist2(a, b [3]float64) float64 {
	dx, dy, dz := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	return dx*dx + dy*dy + dz*dz
}
