package api

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/openapi"
)

// oaFuzzQueries seed FuzzOpenAPIEndpoints: every parameter the document names, valid and
// not, so that the fuzzer starts from queries each endpoint reads.
var oaFuzzQueries = []string{
	"",
	"ip=8.8.8.8&localityLanguage=de&utcReference=1700000000",
	"ip=2001:4860:4860::8888&localityLanguage=default",
	"ip=10.1.2.3&localityLanguage=ja",
	"ip=134744072&utcReference=253402300799",
	"ip=999.1.1.1&localityLanguage=",
	"cidr=8.8.0.0/16&depthLimit=1&subnetsBatchSize=5&subnetsOffset=2&bogonsOnly=false",
	"cidr=2001:db8::/32&bogonsOnly=true&depthLimit=0",
	"asn=AS15169&batchSize=5&offset=3&peersCap=2",
	"asn=ASN13335&isv4=false&sort=size&order=desc&batchSize=1000",
	"sort=rank&order=asc&batchSize=15&offset=77000",
	"latitude=-33.8688&longitude=151.2093&localityLanguage=en",
	"latitude=90&longitude=-180",
	"latitude=NaN&longitude=1e400",
	"number=%2B353%201%20234%205678&countryCode=IE",
	"number=0871234567&countryCode=ie&ip=81.2.69.160",
	"code=IE&localityLanguage=fr",
	"code=XK",
	"timeZoneId=Europe/Dublin&utcReference=1700000000",
	"timeZoneId=Nowhere/Land",
	"userAgentRaw=Mozilla/5.0%20(X11%3B%20Linux%20x86_64)",
	"ip=8.8.8.8&ip=1.1.1.1&key=nope",
	"ip=%zz&cidr=%",
}

// FuzzOpenAPIEndpoints sends arbitrary query strings, with a good key, to every GET
// operation of the OpenAPI document, and holds each answer to the document: a status it
// documents for that operation (never a 500: a client's input is never the server's
// fault), a body of the schema it gives for that status (the JSON error body for every
// refusal), and the headers it requires. Each request comes from an address of its own, so
// that the keyless endpoints' rate limit does not answer in their place. With
// IPATLAS_TEST_SNAPSHOT set it runs on the real data, which reaches every handler's lookups;
// without, on the fixture, whose missing engines answer 503.
func FuzzOpenAPIEndpoints(f *testing.F) {
	d, err := openapi.Default()
	if err != nil {
		f.Fatal(err)
	}
	documented := map[string]bool{}
	for _, op := range d.Operations() {
		// Path parameters (GraphQL's package) are not what this fuzzes: GraphQL bodies have
		// their own fuzz target.
		if op.Method == http.MethodGet && !strings.Contains(op.Path, "{") {
			documented[op.Path] = true
		}
	}
	if len(documented) < 25 {
		f.Fatalf("only %d GET operations in the document", len(documented))
	}
	var snap *dataset.Snapshot
	if os.Getenv(datasettest.RealEnv) != "" {
		snap = datasettest.Real(f)
	} else {
		snap = datasettest.Snapshot(f)
	}
	s := oaServer(snap)
	h := s.Handler()
	for path := range documented {
		for _, q := range oaFuzzQueries {
			f.Add(path, q)
		}
	}
	var client atomic.Uint32
	// The path is an input of its own, not an index into the document's operations, so that
	// a saved input names its endpoint whatever the document adds later; a mutated path that
	// names none is not what this tests.
	f.Fuzz(func(t *testing.T, path, query string) {
		if !documented[path] {
			return
		}
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.URL.RawQuery = "key=good&" + query
		r.RequestURI = path + "?" + r.URL.RawQuery
		n := client.Add(1)
		addr := netip.AddrFrom4([4]byte{10, byte(n >> 16), byte(n >> 8), byte(n)})
		r.RemoteAddr = netip.AddrPortFrom(addr, 40000).String()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code == http.StatusInternalServerError {
			t.Fatalf("GET %s?%s: 500 %s", path, r.URL.RawQuery, rec.Body)
		}
		if err := d.ValidateResponse(http.MethodGet, path, rec.Code, rec.Body.Bytes()); err != nil {
			t.Fatalf("GET %s?%s: %v", path, r.URL.RawQuery, err)
		}
		if err := d.ValidateHeader(http.MethodGet, path, rec.Code, rec.Header()); err != nil {
			t.Fatalf("GET %s?%s: %v", path, r.URL.RawQuery, err)
		}
	})
}
