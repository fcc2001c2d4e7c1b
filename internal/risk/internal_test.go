package risk

import (
	"math/big"
	"math/rand/v2"
	"net/netip"
	"strings"
	"testing"
)

func (u u128) big() *big.Int {
	b := new(big.Int).SetUint64(u.hi)
	return b.Lsh(b, 64).Or(b, new(big.Int).SetUint64(u.lo))
}

// TestU128 checks the 128-bit arithmetic against math/big, edges included.
func TestU128(t *testing.T) {
	max := u128{^uint64(0), ^uint64(0)}
	vals := []u128{{}, {0, 1}, {0, ^uint64(0)}, {1, 0}, {^uint64(0), 0}, max, {1 << 63, 1 << 63}}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		vals = append(vals, u128{rng.Uint64(), rng.Uint64()}, u128{rng.Uint64() >> rng.IntN(64), rng.Uint64()})
	}
	limit := new(big.Int).Lsh(big.NewInt(1), 128)
	for _, a := range vals {
		for _, b := range vals {
			sum, over := a.add(b)
			want := new(big.Int).Add(a.big(), b.big())
			if wantOver := want.Cmp(limit) >= 0; over != wantOver {
				t.Fatalf("%v + %v: overflow %v, want %v", a, b, over, wantOver)
			}
			if want.Mod(want, limit); sum.big().Cmp(want) != 0 {
				t.Fatalf("%v + %v = %v, want %v", a, b, sum.big(), want)
			}
			if c := a.cmp(b); c != a.big().Cmp(b.big()) {
				t.Fatalf("cmp(%v, %v) = %d", a, b, c)
			}
			if a.cmp(b) >= 0 {
				if d := a.sub(b); d.big().Cmp(new(big.Int).Sub(a.big(), b.big())) != 0 {
					t.Fatalf("%v - %v = %v", a, b, d.big())
				}
			}
		}
	}
	if got := addrU128(netip.MustParseAddr("1.2.3.4")); got != (u128{lo: 0x01020304}) {
		t.Errorf("addrU128(1.2.3.4) = %v", got)
	}
	if got := addrU128(netip.MustParseAddr("2001:db8::1")); got != (u128{hi: 0x20010db800000000, lo: 1}) {
		t.Errorf("addrU128(2001:db8::1) = %v", got)
	}
}

func TestHostingName(t *testing.T) {
	for org, want := range map[string]bool{
		"":                          false,
		"Deutsche Telekom AG":       false,
		"Hetzner Online GmbH":       false, // a hoster, but its name does not say so
		"OVH Hosting":               true,
		"DIGITALOCEAN-ASN":          false,
		"Linode Cloud":              true,
		"Global Data Centre Ltd":    true,
		"VPSville":                  true,
		"M247 Europe SRL Dedicated": true,
		"hostin":                    false,
	} {
		if got := hostingName(org); got != want {
			t.Errorf("hostingName(%q) = %v, want %v", org, got, want)
		}
	}
}

// TestHostingWords checks that hostingName's switch matches exactly the documented words.
func TestHostingWords(t *testing.T) {
	words := strings.Split(hostingWords, "|")
	reference := func(org string) bool {
		lower := strings.ToLower(org)
		for _, w := range words {
			if strings.Contains(lower, w) {
				return true
			}
		}
		return false
	}
	cases := []string{"", "x", "Hostin", "data cent", "VPs", "colo", "serve"}
	for _, w := range words {
		cases = append(cases, w, strings.ToUpper(w), "The "+w+" Company", w[:len(w)-1], w[1:])
	}
	rng := rand.New(rand.NewPCG(9, 10))
	alphabet := "hostingdatacenrluvpwyHOSTINGDATACENRLUVPWY -"
	for range 20000 {
		b := make([]byte, rng.IntN(14))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, org := range cases {
		if got, want := hostingName(org), reference(org); got != want {
			t.Errorf("hostingName(%q) = %v, want %v", org, got, want)
		}
	}
}
