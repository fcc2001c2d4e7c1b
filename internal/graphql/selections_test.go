package graphql

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// Shapes of documents that feed gqlparser's field merging rule, by size n.

const roaming = "amIRoaming(latitude: 1, longitude: 1)"

// repeated selects one field n times in one selection set.
func repeated(n int) string {
	return "{ " + roaming + " {" + strings.Repeat(" isRoaming", n) + " } }"
}

// inlineRepeated selects it n times, each in its own inline fragment.
func inlineRepeated(n int) string {
	return "{ " + roaming + " {" + strings.Repeat(" ... on AmIRoaming { isRoaming }", n) + " } }"
}

// spreadRepeated spreads one fragment n times.
func spreadRepeated(n int) string {
	return "{ " + roaming + " {" + strings.Repeat(" ...F", n) + " } } fragment F on AmIRoaming { isRoaming }"
}

// distinctFragments spreads n fragments that each select the field.
func distinctFragments(n int) string {
	return spreadFragments(n, func(int) string { return "isRoaming" })
}

// spreadFragments spreads n fragments F0…Fn-1, fragment i selecting body(i).
func spreadFragments(n int, body func(i int) string) string {
	var b strings.Builder
	b.WriteString("{ " + roaming + " {")
	for i := range n {
		fmt.Fprintf(&b, " ...F%d", i)
	}
	b.WriteString(" } }")
	for i := range n {
		fmt.Fprintf(&b, " fragment F%d on AmIRoaming { %s }", i, body(i))
	}
	return b.String()
}

// fragmentRepeated defines a fragment that selects the field n times.
func fragmentRepeated(n int) string {
	return "{ " + roaming + " { ...F } } fragment F on AmIRoaming {" + strings.Repeat(" isRoaming", n) + " }"
}

// nested repeats a field n times, each with the same n sub-fields: every pair of the
// outer fields compares their sub-selections pairwise, n² fields in one merged set.
func nested(n int) string {
	inner := "localityInfo {" + strings.Repeat(" informative { name }", n) + " }"
	return "{ reverseGeocodeClient {" + strings.Repeat(" "+inner, n) + " } }"
}

// fragmentChain is n fragments that each spread the next twice, 2ⁿ uses of the last, which
// selects a field with a fragment in its sub-selection: comparing it resets gqlparser's
// record of the fragments already compared, so the rule walks all 2ⁿ paths.
func fragmentChain(n int) string {
	var b strings.Builder
	b.WriteString("{ reverseGeocodeClient { localityInfo { ...Z } ...F0 } } fragment Z on LocalityInfo { informative { name } }")
	for i := range n {
		fmt.Fprintf(&b, " fragment F%d on ReverseGeocode { ...F%d ...F%d }", i, i+1, i+1)
	}
	fmt.Fprintf(&b, " fragment F%d on ReverseGeocode { localityInfo { ...Z } }", n)
	return b.String()
}

// fragmentPairs spreads n distinct fragments, with distinct fields, into sets of 32 under
// aliased roots: the rule compares every pair of fragments spread into one set.
func fragmentPairs(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i%32 == 0 {
			if i > 0 {
				b.WriteString(" }")
			}
			fmt.Fprintf(&b, " r%d: "+roaming+" {", i)
		}
		fmt.Fprintf(&b, " ...F%d", i%64)
	}
	b.WriteString(" } }")
	for i := range 64 {
		fmt.Fprintf(&b, " fragment F%d on AmIRoaming { a%d: isRoaming }", i, i)
	}
	return b.String()
}

// largest is the shape at the largest n whose document is within MaxTokens.
func largest(shape func(int) string) (string, int) {
	lo, hi := 1, 1
	for fits(shape(hi)) {
		lo, hi = hi, hi*2
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; fits(shape(mid)) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return shape(lo), lo
}

func fits(q string) bool {
	_, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: q}, MaxTokens)
	return err == nil
}

// requestPath runs what a request does before executing, uncached: parse, the selection
// check (unless unguarded, as before it existed), validation, depth and cost. It returns
// the error code, or "".
func requestPath(p *Package, q string, guarded bool) string {
	var e *cacheEntry
	if guarded {
		e = parseAndValidate(p, q)
	} else {
		e = &cacheEntry{}
		doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Name: "query", Input: q}, MaxTokens)
		switch {
		case err != nil:
			e.code = codeParse
		case len(crossPackage(p, doc)) > 0:
			e.code = codeCrossPkg
		case len(validator.ValidateWithRules(p.schema, doc, validationRules)) > 0:
			e.code = codeValidation
		default:
			e.doc = doc
		}
	}
	if e.doc == nil {
		return e.code
	}
	op, _ := selectOperation(e.doc, "")
	if op == nil {
		return codeOperation
	}
	vars, err := coerceVariables(p.schema, op, nil)
	if err != nil {
		return codeBadInput
	}
	if le := checkLimits(op, e.doc, vars); le != nil {
		return le.code
	}
	return ""
}

// fragmentCycle spreads fragments A and B into each other, the second time under a field
// whose sub-selection spreads a fragment: before the check, gqlparser's merging rule
// recursed through it until the stack overflowed, killing the process.
const fragmentCycleQuery = `{ reverseGeocodeClient { localityInfo { ...Z } ...A } } fragment A on ReverseGeocode { ...B localityInfo { ...Z } } fragment B on ReverseGeocode { ...A } fragment Z on LocalityInfo { informative { name } }`

// spreadsOfDistinctFragments spreads n fragments that each select a different field.
func spreadsOfDistinctFragments(n int) string {
	return spreadFragments(n, func(i int) string { return fmt.Sprintf("a%d: isRoaming", i) })
}

// spreadFragmentOfSize has roots aliased root fields that each spread one fragment of
// fields aliased fields: roots·(fields+2) + fields selections, the fragment counted once
// per use and once as a definition.
func spreadFragmentOfSize(roots, fields int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range roots {
		fmt.Fprintf(&b, " r%d: "+roaming+" { ...F }", i)
	}
	b.WriteString(" } fragment F on AmIRoaming {")
	for i := range fields {
		fmt.Fprintf(&b, " a%d: isRoaming", i)
	}
	b.WriteString(" }")
	return b.String()
}

// fullSelection selects every field of typ that needs no argument, objects nested up to
// depth levels.
func fullSelection(s *ast.Schema, typ string, depth int) (string, int) {
	var b strings.Builder
	n := 0
	for _, f := range s.Types[typ].Fields {
		if strings.HasPrefix(f.Name, "__") || slices.ContainsFunc(f.Arguments, func(a *ast.ArgumentDefinition) bool { return a.Type.NonNull }) {
			continue
		}
		sub := ""
		if ft := s.Types[f.Type.Name()]; ft.Kind == ast.Object {
			if depth <= 1 {
				continue
			}
			var m int
			if sub, m = fullSelection(s, ft.Name, depth-1); m == 0 {
				continue
			}
			n += m
		}
		b.WriteString(" " + f.Name + sub)
		n++
	}
	return " {" + b.String() + " }", n
}

// fullAliases is the largest legitimate query the limits are meant for: 49 aliased
// lookups (MaxCost allows 49 root fields), each with every field of the answer.
func fullAliases(t testing.TB) string {
	sel, n := fullSelection(mustPackage(t, IPGeolocation).schema, "IPGeolocation", MaxDepth)
	if n < 100 {
		t.Fatalf("the full selection has %d fields", n)
	}
	var b strings.Builder
	b.WriteString("{")
	for i := range 49 {
		fmt.Fprintf(&b, " a%d: ipGeolocation { ...Full }", i)
	}
	b.WriteString(" } fragment Full on IPGeolocation" + sel)
	return b.String()
}

func TestGraphQLSelectionLimits(t *testing.T) {
	introspection, err := readTestdata("introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	// As in TestGraphQLLimits, whose largest query this is.
	bigVars := `query($n: Int) {`
	for _, alias := range strings.Split("abcdefghij", "") {
		bigVars += " " + alias + `: asnInfo(asn: 1, batchSize: $n) { transitTo { asn asnNumeric organisation name registry registeredCountry registeredCountryName totalIpv4Addresses rank rankText } }`
	}
	bigVars += " }"
	tests := []struct {
		name, pkg, query string
		code             string // "" when the query must pass the check and validation
		msg              string
	}{
		{"the reported query", FreeAPI, repeated(1950), codeSelections, `selects "isRoaming" more than 10 times in one selection set`},
		{"repeats at the limit", FreeAPI, repeated(MaxSameName), "", ""},
		{"repeats over it", FreeAPI, repeated(MaxSameName + 1), codeSelections, `selects "isRoaming" more than 10 times`},
		{"aliases are other names", FreeAPI, sameNameGroups(600), "", ""},
		{"inline fragments at the limit", FreeAPI, inlineRepeated(MaxSameName), "", ""},
		{"inline fragments over it", FreeAPI, inlineRepeated(MaxSameName + 1), codeSelections, `"isRoaming" more than 10 times in one selection set, counting fields merged in from fragments`},
		{"fragments at the limit", FreeAPI, distinctFragments(MaxSameName), "", ""},
		{"fragments over it", FreeAPI, distinctFragments(MaxSameName + 1), codeSelections, `"isRoaming" more than 10 times`},
		{"one fragment spread over it", FreeAPI, spreadRepeated(MaxSameName + 1), codeSelections, `"isRoaming" more than 10 times`},
		{"a fragment at the limit", FreeAPI, fragmentRepeated(MaxSameName), "", ""},
		{"a fragment over it", FreeAPI, fragmentRepeated(MaxSameName + 1), codeSelections, `"isRoaming" more than 10 times`},
		{"an unused fragment over it", FreeAPI, "{ __typename } fragment F on Query {" + strings.Repeat(" __typename", MaxSameName+1) + " }", codeSelections, `"__typename" more than 10 times`},
		{"nested at the limit", FreeAPI, nested(3), "", ""}, // 9 informative in one merged set
		{"nested over it", FreeAPI, nested(4), codeSelections, `"informative" more than 10 times`},
		{"nested at the largest size", FreeAPI, largestOf(nested), codeSelections, `"localityInfo" more than 10 times`},
		{"spreads at the limit", FreeAPI, spreadsOfDistinctFragments(MaxSpreads), "", ""},
		{"spreads over it", FreeAPI, spreadsOfDistinctFragments(MaxSpreads + 1), codeSelections, "more than 32 fragments into one selection set"},
		{"sets of 32 spreads at the largest size", FreeAPI, largestOf(fragmentPairs), "", ""},
		{"a fragment chain", FreeAPI, fragmentChain(40), codeSelections, "more than 32 fragments into one selection set"},
		{"selections at the limit", FreeAPI, spreadFragmentOfSize(49, 198), "", ""}, // 49·200+198 = 9998
		{"selections over it", FreeAPI, spreadFragmentOfSize(50, 198), codeSelections, "more than 10000 selections"},
		{"a fragment cycle", FreeAPI, fragmentCycleQuery, codeValidation, `Cannot spread fragment "A" within itself via B.`},
		{"a fragment spreading itself", IPGeolocation, `fragment A on Query { ...A } { ...A }`, codeValidation, `Cannot spread fragment "A" within itself.`},
		{"a cycle through a field", IPGeolocation, `{ ipGeolocation { ...A } } fragment A on IPGeolocation { network { ...B } } fragment B on Network { carriers { asn } ...C } fragment C on Network { ...B }`, codeValidation, `Cannot spread fragment "B" within itself via C.`},
		// Legitimate queries, the largest of the other tests among them.
		{"spec example", IPGeolocation, `{ ipGeolocation { location { city country } confidence network { organisation } } }`, "", ""},
		{"fragments merging with fields", IPGeolocation, `{ ipGeolocation { country { isoAlpha2 } ...F ... on IPGeolocation { country { name } } } } fragment F on IPGeolocation { country { isoAlpha3 isoAlpha2 } }`, "", ""},
		{"ten aliased lookups with a page of fields", NetworkEngineering, bigVars, "", ""},
		{"introspection", IPGeolocation, introspection, "", ""},
		{"49 lookups with every field", IPGeolocation, fullAliases(t), "", ""},
	}
	pkgs, err := Packages()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !fits(tt.query) {
				t.Fatal("the query is over the token limit")
			}
			e := parseAndValidate(pkgs[tt.pkg], tt.query)
			if tt.code == "" {
				if e.doc == nil {
					t.Fatalf("refused: %s %v", e.code, e.errs)
				}
				return
			}
			if e.doc != nil || e.code != tt.code || len(e.errs) != 1 || !strings.Contains(e.errs[0].Message, tt.msg) {
				t.Fatalf("got %s %v; want one %s error containing %q", e.code, e.errs, tt.code, tt.msg)
			}
		})
	}
}

// TestGraphQLRepeatedFieldRefusedBeforeValidation sends the query of the security review
// (one field 1950 times: within the token and cost limits, seconds of validation) and
// expects the selection limit's error, which only the check before validation gives.
func TestGraphQLRepeatedFieldRefusedBeforeValidation(t *testing.T) {
	s, f := newTestService(t)
	q := "{amIRoaming(latitude:1,longitude:1){" + strings.Repeat("isRoaming ", 1950) + "}}"
	if len(q) <= CacheMaxQuery || !fits(q) {
		t.Fatalf("the query should be within the token limit and too long to cache")
	}
	res := run(t, s, FreeAPI, q, nil)
	if res.Data != nil || len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != codeSelections {
		t.Fatalf("got %s %+v", res.Data, res.Errors)
	}
	want := "The query selects \"isRoaming\" more than 10 times in one selection set, counting fields merged in from fragments; at most 10 fields may share a response name. Select each field once, or give the fields different aliases."
	if res.Errors[0].Message != want {
		t.Errorf("message %q", res.Errors[0].Message)
	}
	if calls := f.callList(); len(calls) > 0 {
		t.Errorf("lookups ran: %v", calls)
	}
}

// TestGraphQLFullAliasesPassValidation: the largest legitimate query gets through the
// selection check and validation; only the cost limit, later, refuses it.
func TestGraphQLFullAliasesPassValidation(t *testing.T) {
	s, _ := newTestService(t)
	res := run(t, s, IPGeolocation, fullAliases(t), nil)
	if len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != "COST_LIMIT_EXCEEDED" {
		t.Fatalf("got %+v", res.Errors)
	}
}

// sameNameGroups selects one field n times under MaxSameName-sized groups of aliases.
func sameNameGroups(n int) string {
	var b strings.Builder
	b.WriteString("{ " + roaming + " {")
	for i := range n {
		fmt.Fprintf(&b, " a%d: isRoaming", i/MaxSameName)
	}
	b.WriteString(" } }")
	return b.String()
}

func largestOf(shape func(int) string) string {
	q, _ := largest(shape)
	return q
}

// BenchmarkGraphQLRequestPath measures the uncached path of a request up to execution
// (requestPath) for each shape, before the selection check (unguarded) and with it.
// Shapes are at the largest size MaxTokens allows, except where noted.
func BenchmarkGraphQLRequestPath(b *testing.B) {
	pkgs, err := Packages()
	if err != nil {
		b.Fatal(err)
	}
	legit := fullAliases(b)
	shapes := []struct {
		name, pkg, query string
		before           bool // run unguarded too
	}{
		{"legit/49-full-aliases", IPGeolocation, legit, true},
		{"legit/spec-example", IPGeolocation, `{ ipGeolocation { location { city country } confidence network { organisation } } }`, true},
		{"attack/repeated", FreeAPI, largestOf(repeated), true},
		{"attack/inline", FreeAPI, largestOf(inlineRepeated), true},
		{"attack/spread-repeated", FreeAPI, largestOf(spreadRepeated), true},
		{"attack/distinct-fragments", FreeAPI, largestOf(distinctFragments), true},
		{"attack/fragment-repeated", FreeAPI, largestOf(fragmentRepeated), true},
		{"attack/nested", FreeAPI, largestOf(nested), true},
		// 2ⁿ paths: unguarded, each step of n doubles the time (n=14: ~0.5 s); MaxTokens
		// allows n in the hundreds.
		{"attack/chain-14", FreeAPI, fragmentChain(14), true},
		{"attack/chain-max", FreeAPI, largestOf(fragmentChain), false},
		{"attack/cycle", FreeAPI, fragmentCycleQuery, false}, // unguarded: fatal stack overflow
		// The most validation work the limits let through, found by trying shapes.
		{"within/same-name-groups", FreeAPI, largestOf(sameNameGroups), true},
		{"within/spreads", FreeAPI, spreadsOfDistinctFragments(MaxSpreads), true},
		{"within/fragment-pairs", FreeAPI, largestOf(fragmentPairs), true},
		{"within/selections", FreeAPI, spreadFragmentOfSize(49, 198), true},
	}
	for _, sh := range shapes {
		p := pkgs[sh.pkg]
		for _, guarded := range []bool{false, true} {
			if !guarded && !sh.before {
				continue
			}
			name := sh.name + "/before"
			if guarded {
				name = sh.name + "/after"
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					requestPath(p, sh.query, guarded)
				}
			})
		}
	}
}
