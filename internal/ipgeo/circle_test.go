package ipgeo

import (
	"math"
	"math/rand/v2"
	"testing"
)

// destination is the point at distance km and bearing θ (radians) from lat, lon: the
// textbook formula written plainly, the reference for circle.vertex.
func destination(lat, lon, km, θ float64) (float64, float64) {
	φ1, λ1, δ := lat*math.Pi/180, lon*math.Pi/180, km/earthRadiusKm
	φ2 := math.Asin(max(-1, min(1, math.Sin(φ1)*math.Cos(δ)+math.Cos(φ1)*math.Sin(δ)*math.Cos(θ))))
	λ2 := λ1 + math.Atan2(math.Sin(θ)*math.Sin(δ)*math.Cos(φ1), math.Cos(δ)-math.Sin(φ1)*math.Sin(φ2))
	return φ2 * 180 / math.Pi, normLon(λ2 * 180 / math.Pi)
}

// project is the azimuthal equidistant projection written plainly, the reference for
// projection.apply.
func project(φ0, λ0, lat, lon float64) (float64, float64) {
	φ, λ := lat*math.Pi/180, lon*math.Pi/180
	cosc := math.Sin(φ0)*math.Sin(φ) + math.Cos(φ0)*math.Cos(φ)*math.Cos(λ-λ0)
	c := math.Acos(max(-1, min(1, cosc)))
	k := 1.0
	if s := math.Sin(c); s > 1e-12 {
		k = c / s
	}
	x := earthRadiusKm * k * math.Cos(φ) * math.Sin(λ-λ0)
	y := earthRadiusKm * k * (math.Cos(φ0)*math.Sin(φ) - math.Sin(φ0)*math.Cos(φ)*math.Cos(λ-λ0))
	return x, y
}

// TestCircleMatchesFormulas: the hoisted vertex and projection arithmetic gives exactly the
// plain formulas' bits, for places all over the globe (poles and the antimeridian included)
// and radii from 1 km to 1000 km, so the confidence areas do not move by an ulp.
func TestCircleMatchesFormulas(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for i := range 20000 {
		lat, lon := rng.Float64()*180-90, rng.Float64()*360-180
		if i%100 == 0 {
			lat = []float64{90, -90, 0, 89.99999}[i/100%4]
			lon = []float64{180, -180, 0, 179.99999}[i/100%4]
		}
		km := math.Exp(rng.Float64() * math.Log(1000))
		φ0, λ0 := (rng.Float64()*180-90)*math.Pi/180, (rng.Float64()*360-180)*math.Pi/180
		c, pr := newCircle(lat, lon, km), newProjection(φ0, λ0)
		for k := range CircleVertices {
			wantLat, wantLon := destination(lat, lon, km, 2*math.Pi*float64(k)/CircleVertices)
			gotLat, gotLon := c.vertex(k)
			if gotLat != wantLat || gotLon != wantLon {
				t.Fatalf("vertex %d of (%v, %v, %v km): %v, %v; want %v, %v", k, lat, lon, km, gotLat, gotLon, wantLat, wantLon)
			}
			wantX, wantY := project(φ0, λ0, wantLat, wantLon)
			gotX, gotY := pr.apply(gotLat, gotLon)
			if gotX != wantX || gotY != wantY {
				t.Fatalf("projection of (%v, %v) from (%v, %v): %v, %v; want %v, %v", gotLat, gotLon, φ0, λ0, gotX, gotY, wantX, wantY)
			}
		}
	}
}
