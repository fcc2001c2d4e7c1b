package loadtest

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"net/url"
)

// Baseline is the name of the static target every other one is compared with.
const Baseline = "static 1.5 KB (baseline)"

// StaticLarge is the static body at about the mean size of a geolocation answer under this
// load (2.5 KB; the body column gives the measured mean): its ratio is what that answer's
// size alone costs, the part of the geolocation's ratio that no faster lookup or render can
// remove. Unlike the baseline's prebuilt body, it is assembled per request in a pooled
// buffer, as the answers are.
const StaticLarge = "static 2.5 KB"

// GeolocationOne is the geolocation of one address (8.8.8.8, a 3 KB answer) in random
// languages: the data it reads stays in the CPU caches, so the difference between its ratio
// and that of random addresses is mostly what the cache misses of random lookups cost (the
// rest: random answers differ in shape, and one in eight is large enough to need a second
// write).
const GeolocationOne = "ip-geolocation 8.8.8.8"

// Targets returns the endpoints to load: the static baseline first, the static body at a
// geolocation answer's size, then every keyed endpoint with random inputs (random
// addresses over the whole IPv4 space and 2000::/3, so bogons and unannounced space are
// hit in their natural share), the geolocation of one address after that of random ones.
func Targets(staticPath string) []Target {
	lang := func(rng *rand.Rand) string { return []string{"en", "de", "ja", "default"}[rng.IntN(4)] }
	return []Target{
		{Baseline, staticPath, func(*rand.Rand) string { return "" }},
		{StaticLarge, staticPath, func(*rand.Rand) string { return "bytes=2560" }},
		{"country-info", "/data/country-info", func(rng *rand.Rand) string {
			return "code=" + []string{"US", "DE", "JP", "BR", "IE", "AU", "IN", "ZA"}[rng.IntN(8)] + "&localityLanguage=" + lang(rng)
		}},
		{"ip-geolocation-with-confidence", "/data/ip-geolocation-with-confidence", func(rng *rand.Rand) string {
			return "ip=" + url.QueryEscape(RandomAddr(rng).String()) + "&localityLanguage=" + lang(rng)
		}},
		{GeolocationOne, "/data/ip-geolocation-with-confidence", func(rng *rand.Rand) string {
			return "ip=8.8.8.8&localityLanguage=" + lang(rng)
		}},
		{"network-by-ip", "/data/network-by-ip", func(rng *rand.Rand) string {
			return "ip=" + url.QueryEscape(RandomAddr(rng).String())
		}},
		{"user-risk", "/data/user-risk", func(rng *rand.Rand) string {
			return "ip=" + url.QueryEscape(RandomAddr(rng).String())
		}},
		{"network-by-cidr", "/data/network-by-cidr", func(rng *rand.Rand) string {
			p, _ := RandomAddr4(rng).Prefix(16 + rng.IntN(9))
			return "cidr=" + url.QueryEscape(p.String())
		}},
		{"asn-info-transit-to", "/data/asn-info-transit-to", func(rng *rand.Rand) string {
			return "asn=AS" + bigASes[rng.IntN(len(bigASes))] + "&batchSize=10"
		}},
		{"asn-info-full", "/data/asn-info-full", func(rng *rand.Rand) string {
			return "asn=AS" + bigASes[rng.IntN(len(bigASes))]
		}},
		// The lists in pages of 100 (more than their defaults): an answer of tens of
		// kilobytes, so their ratios say what a page costs, not a lookup.
		{"asn-rank-list", "/data/asn-rank-list", func(rng *rand.Rand) string {
			return fmt.Sprintf("batchSize=100&offset=%d&sort=%s", rng.IntN(77000), []string{"rank", "organisation", "countryCode"}[rng.IntN(3)])
		}},
		{"prefixes-list", "/data/prefixes-list", func(rng *rand.Rand) string {
			return "batchSize=100&asn=AS" + bigASes[rng.IntN(len(bigASes))] + "&isv4=" + []string{"true", "false"}[rng.IntN(2)]
		}},
		{"tor-exit-nodes-list", "/data/tor-exit-nodes-list", func(rng *rand.Rand) string {
			return fmt.Sprintf("batchSize=100&offset=%d", rng.IntN(2000))
		}},
		{"phone-number-validate-by-ip", "/data/phone-number-validate-by-ip", func(rng *rand.Rand) string {
			return "number=0293744000&ip=" + url.QueryEscape(RandomAddr(rng).String())
		}},
		// A handful of strings, as real traffic repeats browsers: the parser's cache answers.
		{"user-agent-info", "/data/user-agent-info", func(rng *rand.Rand) string {
			return "userAgentRaw=" + url.QueryEscape(userAgents[rng.IntN(len(userAgents))])
		}},
		{"phone-number-validate", "/data/phone-number-validate", func(rng *rand.Rand) string {
			n := []string{"+61 2 9374 4000", "+1 650-253-0000", "+44 20 7031 3000", "+49 30 303986300", "+81 3-6384-9000"}[rng.IntN(5)]
			return "number=" + url.QueryEscape(n)
		}},
		{"reverse-geocode", "/data/reverse-geocode", func(rng *rand.Rand) string {
			return fmt.Sprintf("latitude=%.5f&longitude=%.5f&localityLanguage=%s", rng.Float64()*140-60, rng.Float64()*360-180, lang(rng))
		}},
	}
}

// bigASes are ASes with transit and many prefixes in the data.
var bigASes = []string{"15169", "13335", "3356", "174", "8075", "16509", "3320", "2914"}

// userAgents are common browsers' and a crawler's User-Agent strings.
var userAgents = []string{
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
	"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
}

// RandomAddr returns a random IPv4 address (four times in five) or a random address in
// 2000::/3.
func RandomAddr(rng *rand.Rand) netip.Addr {
	if rng.IntN(5) > 0 {
		return RandomAddr4(rng)
	}
	var b [16]byte
	hi, lo := rng.Uint64(), rng.Uint64()
	for i := range 8 {
		b[i], b[8+i] = byte(hi>>(56-8*i)), byte(lo>>(56-8*i))
	}
	b[0] = 0x20 | b[0]&0x1f
	return netip.AddrFrom16(b)
}

// RandomAddr4 returns a random IPv4 address.
func RandomAddr4(rng *rand.Rand) netip.Addr {
	v := rng.Uint32()
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}
