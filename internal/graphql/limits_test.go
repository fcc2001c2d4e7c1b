package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

func TestGraphQLLimits(t *testing.T) {
	aliases := func(n int, field string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, " a%d: %s", i, field)
		}
		b.WriteString(" }")
		return b.String()
	}
	deep := "{ networkByCidr(cidr: \"8.0.0.0/8\", depthLimit: 5) { networks { networks { networks { networks { networks { networks { networks { network { carriers { asn } } } } } } } } } } }"

	tests := []struct {
		name, pkg, query string
		vars             map[string]any
		code             string // "" when the query must run
		msg              string
	}{
		{"spec example is cheap", IPGeolocation, `{ ipGeolocation { location { city country } confidence network { organisation } } }`, nil, "", ""},
		{"49 lookups pass", IPGeolocation, aliases(49, "userRisk { risk }"), nil, "", ""},
		{"50 lookups are too costly", IPGeolocation, aliases(50, "userRisk { risk }"), nil, "COST_LIMIT_EXCEEDED", "estimated cost is over 5000"},
		{"page size counts", NetworkEngineering, `{ asnInfo(asn: 1, batchSize: 50) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } }`, nil, "", ""},
		{"page size from a variable", NetworkEngineering, `query($n: Int) { a: asnInfo(asn: 1, batchSize: $n) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } b: asnInfo(asn: 1, batchSize: $n) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } c: asnInfo(asn: 1, batchSize: $n) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } d: asnInfo(asn: 1, batchSize: $n) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } e: asnInfo(asn: 1, batchSize: $n) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } f: asnInfo(asn: 1, batchSize: $n) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } g: asnInfo(asn: 1, batchSize: $n) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } h: asnInfo(asn: 1, batchSize: $n) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } i: asnInfo(asn: 1, batchSize: $n) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } j: asnInfo(asn: 1, batchSize: $n) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } } }`,
			map[string]any{"n": 50}, "COST_LIMIT_EXCEEDED", "too costly"},
		// asnInfoFull's two lists hold 50 each unless peersCap (1 to 50) says fewer; 0 and
		// values above 50 are answered with 50, and counted so.
		{"asnInfoFull lists count 50 each", NetworkEngineering, aliases(20, `asnInfoFull(asn: 1) { receivingFrom { asn rank } transitTo { asn rank } }`), nil, "COST_LIMIT_EXCEEDED", "too costly"},
		{"asnInfoFull peersCap 0 is 50", NetworkEngineering, aliases(20, `asnInfoFull(asn: 1, peersCap: 0) { receivingFrom { asn rank } transitTo { asn rank } }`), nil, "COST_LIMIT_EXCEEDED", "too costly"},
		{"asnInfoFull peersCap 99 is 50", NetworkEngineering, aliases(20, `asnInfoFull(asn: 1, peersCap: 99) { receivingFrom { asn rank } transitTo { asn rank } }`), nil, "COST_LIMIT_EXCEEDED", "too costly"},
		{"asnInfoFull peersCap 1 is cheap", NetworkEngineering, aliases(20, `asnInfoFull(asn: 1, peersCap: 1) { receivingFrom { asn rank } transitTo { asn rank } }`), nil, "", ""},
		// The list roots' pages count batchSize entries (100 when absent).
		{"asnRankList default page", NetworkEngineering, `{ asnRankList { asns { asn asnNumeric organisation name rank } } }`, nil, "", ""},
		{"asnRankList page of 1000", NetworkEngineering, `{ asnRankList(batchSize: 1000) { asns { asn asnNumeric organisation name rank } } }`, nil, "COST_LIMIT_EXCEEDED", "too costly"},
		{"prefixesList page of 1000", NetworkEngineering, `{ prefixesList(asn: 1, batchSize: 1000) { prefixes { bgpPrefix isBogon isAnnounced registryStatus carriers { asn } } } }`, nil, "COST_LIMIT_EXCEEDED", "too costly"},
		{"torExitNodesList page of 1000", NetworkEngineering, `{ torExitNodesList(batchSize: 1000) { nodes { ip countryCode countryName carriers { asn } } } }`, nil, "COST_LIMIT_EXCEEDED", "too costly"},
		{"countries with every field of interest", IPGeolocation, `{ countries { isoAlpha2 isoAlpha3 m49Code name isoName isoNameFull unRegion callingCode countryFlagEmoji wikidataId geonameId isIndependent currency { code } } }`, nil, "", ""},
		{"countries with their continents", IPGeolocation, `{ countries { isoAlpha2 continents { continent continentCode } } }`, nil, "", ""},
		{"countries with their languages", IPGeolocation, `{ countries { isoAlpha2 isoAdminLanguages { isoAlpha3 isoAlpha2 isoName nativeName } } }`, nil, "", ""},
		{"countries with too many fields", IPGeolocation, `{ countries { isoAlpha2 isoAlpha3 m49Code name isoName isoNameFull unRegion callingCode countryFlagEmoji wikidataId geonameId isIndependent currency { code name } isoAdminLanguages { isoAlpha2 } continents { continent } } }`, nil, "COST_LIMIT_EXCEEDED", "4 for a country's languages"},
		{"fragment chain", IPGeolocation, doublingChain(), nil, "SELECTION_LIMIT_EXCEEDED", "more than 10 times"},
		{"49 ranges at depth 1 pass", NetworkEngineering, cidrRoots(49, `depthLimit: 1`), nil, "", ""},
		{"9 ranges at depth 5 pass", NetworkEngineering, cidrRoots(9, `depthLimit: 5, bogonsOnly: true`), nil, "", ""},
		{"10 ranges at depth 5 do not", NetworkEngineering, cidrRoots(10, `depthLimit: 5, bogonsOnly: true`), nil, "COST_LIMIT_EXCEEDED", "networkByCidr that times its depthLimit"},
		{"depth from a variable", NetworkEngineering, "query($d: Int) " + cidrRoots(10, `depthLimit: $d`), map[string]any{"d": 5}, "COST_LIMIT_EXCEEDED", "too costly"},
		{"depth from a variable, small", NetworkEngineering, "query($d: Int) " + cidrRoots(10, `depthLimit: $d`), map[string]any{"d": 1}, "", ""},
		{"ten levels pass", NetworkEngineering, `{ networkByCidr(cidr: "8.0.0.0/8") { networks { networks { networks { networks { networks { networks { network { carriers { asn } } } } } } } } } }`, nil, "", ""},
		{"eleven levels do not", NetworkEngineering, deep, nil, "DEPTH_LIMIT_EXCEEDED", "nests 11 fields deep; at most 10"},
		{"depth through fragments", NetworkEngineering, `{ networkByCidr(cidr: "8.0.0.0/8") { ...A } } fragment A on NetworksByCidr { networks { ...B } } fragment B on CidrItem { networks { networks { networks { networks { networks { networks { network { carriers { asn } } } } } } } } }`, nil, "DEPTH_LIMIT_EXCEEDED", "at most 10"},
		{"too many tokens", IPGeolocation, aliases(700, "__typename"), nil, "GRAPHQL_PARSE_FAILED", "at most 2000 tokens"},
		{"nested introspection is refused", IPGeolocation, `{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }`, nil, "GRAPHQL_VALIDATION_FAILED", "introspection depth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, f := newTestService(t)
			start := time.Now()
			res := run(t, s, tt.pkg, tt.query, tt.vars)
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
			if tt.code == "" {
				for _, e := range res.Errors {
					if c := e.Extensions["code"]; c != codeREST && c != codeInternal {
						t.Errorf("refused: %+v", res.Errors)
					}
				}
				return
			}
			if res.Data != nil || len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != tt.code || !strings.Contains(res.Errors[0].Message, tt.msg) {
				t.Fatalf("got %+v %s; want one %s error containing %q", res.Errors, res.Data, tt.code, tt.msg)
			}
			if calls := f.callList(); len(calls) > 0 {
				t.Errorf("a refused query ran lookups: %v", calls)
			}
		})
	}
}

// cidrRoots is n aliased networkByCidr roots over ::/0 with args, selecting totalNetworks.
func cidrRoots(n int, args string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, ` r%d: networkByCidr(cidr: "::/0", %s) { totalNetworks }`, i, args)
	}
	b.WriteString(" }")
	return b.String()
}

// doublingChain is a fragment chain that doubles the selection at each step: small to
// write, 2^20 fields once expanded.
func doublingChain() string {
	var chain strings.Builder
	chain.WriteString("{ ipGeolocation { ...F0 } } fragment F20 on IPGeolocation { ip }")
	for i := range 20 {
		fmt.Fprintf(&chain, " fragment F%d on IPGeolocation { a: ip ...F%d ...F%d }", i, i+1, i+1)
	}
	return chain.String()
}

// TestGraphQLCostOfFragmentChain: the selection check refuses the doubling chain before
// the cost meter sees it, but the meter must refuse it too (its sums saturate, so it stops
// long before the 2^20 fields).
func TestGraphQLCostOfFragmentChain(t *testing.T) {
	p := mustPackage(t, IPGeolocation)
	doc, err := parser.ParseQuery(&ast.Source{Input: doublingChain()})
	if err != nil {
		t.Fatal(err)
	}
	if errs := validator.ValidateWithRules(p.schema, doc, validationRules); len(errs) > 0 {
		t.Fatal(errs)
	}
	if le := checkLimits(doc.Operations[0], doc, nil); le == nil || le.code != "COST_LIMIT_EXCEEDED" {
		t.Fatalf("got %+v", le)
	}
}

func mustPackage(t testing.TB, name string) *Package {
	t.Helper()
	pkgs, err := Packages()
	if err != nil {
		t.Fatal(err)
	}
	return pkgs[name]
}

func TestGraphQLResponseSizeLimit(t *testing.T) {
	s, f := newTestService(t)
	// A countries answer larger than the limit: the query is cheap (few fields), the answer not.
	big := `[` + strings.TrimSuffix(strings.Repeat(`{"isoAlpha2":"`+strings.Repeat("X", 1000)+`"},`, MaxResponseBytes/1000), ",") + `]`
	f.override = map[string]func(url.Values) Reply{
		pathCountries: func(url.Values) Reply { return Reply{Status: 200, Body: []byte(big)} },
	}
	res := run(t, s, IPGeolocation, `{ a: countries { isoAlpha2 } b: countries { isoAlpha2 } }`, nil)
	if string(res.Data) != "null" || len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != codeTooBig {
		t.Errorf("got %s %+v", res.Data, res.Errors)
	}
}

func TestGraphQLCostOfSpecExample(t *testing.T) {
	s, _ := newTestService(t)
	p := s.pkgs[IPGeolocation]
	e := s.document(p, `{ ipGeolocation { location { city country } confidence network { organisation } } }`)
	c := costMeter{doc: e.doc}
	if got := c.selectionSet(e.doc.Operations[0].SelectionSet, true, false); got != RootCost+6 {
		t.Errorf("cost %d, want %d", got, RootCost+6)
	}
}

func TestGraphQLIntrospectionQueryIsCheap(t *testing.T) {
	s, _ := newTestService(t)
	q, err := readTestdata("introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	p := s.pkgs[IPGeolocation]
	e := s.document(p, q)
	if e.doc == nil {
		t.Fatalf("refused: %v", e.errs)
	}
	if le := checkLimits(e.doc.Operations[0], e.doc, nil); le != nil {
		t.Fatalf("the standard introspection query is over a limit: %s", le.msg)
	}
	c := costMeter{doc: e.doc}
	if cost := c.selectionSet(e.doc.Operations[0].SelectionSet, true, false); cost > 5*RootCost {
		t.Errorf("introspection costs %d", cost)
	}
}

// TestGraphQLDeadlineKeepsAnsweredFields: when the request's time limit passes between root
// fields, the fields answered keep their data and each field left is null with a 503 field
// error, as a REST request stopped at its limit is answered; the lookups left do not run.
func TestGraphQLDeadlineKeepsAnsweredFields(t *testing.T) {
	s, f := newTestService(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	bodies, err := restBodies()
	if err != nil {
		t.Fatal(err)
	}
	f.override = map[string]func(url.Values) Reply{pathGeolocation: func(url.Values) Reply {
		if calls++; calls == 2 {
			cancel() // the deadline passes during the second lookup
		}
		return Reply{Status: 200, Body: bodies[pathGeolocation]}
	}}
	p, _ := s.Package(IPGeolocation)
	r := httptest.NewRequest("POST", "/graphql/"+IPGeolocation, nil).WithContext(ctx)
	w := httptest.NewRecorder()
	if err := s.Serve(w, r, p, []byte(query(`{ a: ipGeolocation { ip } b: ipGeolocation { ip } c: ipGeolocation { ip } d: ipGeolocation { ip } }`, nil))); err != nil {
		t.Fatal(err)
	}
	var res result
	if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil || w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if want := `{"a":{"ip":"81.2.69.160"},"b":{"ip":"81.2.69.160"},"c":null,"d":null}`; string(res.Data) != want {
		t.Errorf("data %s, want %s", res.Data, want)
	}
	if len(res.Errors) != 2 {
		t.Fatalf("errors %+v", res.Errors)
	}
	for i, e := range res.Errors {
		if e.Extensions["code"] != codeREST || e.Extensions["status"] != float64(503) || len(e.Path) != 1 || e.Path[0] != []string{"c", "d"}[i] || !strings.Contains(e.Message, "took too long") {
			t.Errorf("error %d: %+v", i, e)
		}
	}
	if calls != 2 {
		t.Errorf("%d lookups ran, want 2", calls)
	}
}
