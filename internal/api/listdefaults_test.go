package api

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/graphql"
	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// listPages are the paged lists: the page parameter of a REST endpoint, its default and
// limit as the handler applies them, and the GraphQL root and list field that project it.
// The same numbers are written again in GraphQL's cost table, in the OpenAPI document's
// schemas and in the prose of both documents; TestListDefaultsAgree ties them to these.
var listPages = []struct {
	path, param string
	def, max    int
	// unbounded: a value over max is taken as max rather than refused, so the OpenAPI
	// schema states no maximum (asn-info-full's peersCap).
	unbounded bool
	root      string   // the GraphQL root field with the same argument ("": described as another's)
	gqlType   string   // the type of the list fields the cost table counts ("": the root scales)
	fields    []string // those list fields
}{
	{"/data/asn-info-transit-to", "batchSize", asnDefaultBatch, asnMaxBatch, false, "asnInfo", "AsnInfo", []string{"transitTo"}},
	{"/data/asn-info-receiving-from", "batchSize", asnDefaultBatch, asnMaxBatch, false, "", "AsnInfoReceivingFrom", []string{"receivingFrom"}},
	{"/data/asn-rank-list", "batchSize", rankListDefaultBatch, listMaxBatch, false, "asnRankList", "AsnRankList", []string{"asns"}},
	{"/data/prefixes-list", "batchSize", prefixesDefaultBatch, listMaxBatch, false, "prefixesList", "PrefixesList", []string{"prefixes"}},
	{"/data/tor-exit-nodes-list", "batchSize", torExitsDefaultBatch, listMaxBatch, false, "torExitNodesList", "TorExitNodesList", []string{"nodes"}},
	{"/data/network-by-cidr", "subnetsBatchSize", netinfo.MaxSubnetsBatch, netinfo.MaxSubnetsBatch, false, "networkByCidr", "CidrNetwork", []string{"subnets"}},
	{"/data/asn-info-full", "peersCap", asnFullCap, asnFullCap, true, "asnInfoFull", "AsnInfoFull", []string{"transitTo", "receivingFrom"}},
	// Not a page but a depth, which the cost table scales the root by (no list field).
	{"/data/network-by-cidr", "depthLimit", netinfo.DefaultDepthLimit, netinfo.MaxDepthLimit, false, "networkByCidr", "", nil},
}

// Stated defaults ("default 25", "(default: 25)", "defaults to `25`") and limits ("1 to 50",
// "1–50", "50 is the hard limit", "up to 50", "at most 50") in prose.
var (
	proseDefaultRE = regexp.MustCompile("(?i)\\bdefaults?:?\\s*(?:to\\s+)?`?(\\d+)")
	proseLimitRE   = regexp.MustCompile("(?i)\\b(?:1 to|1\\s*[-–]\\s*|up to|at most)\\s*`?(\\d+)|\\b(\\d+)`? is the (?:hard )?limit")
)

// proseDefault finds, in text after the first mention of param (all of text when param is
// ""), the first stated default and the first limit stated before it; -1 where there is
// none.
func proseDefault(text, param string) (def, max int) {
	text = strings.Join(strings.Fields(text), " ")
	i := strings.Index(text, param)
	if i < 0 {
		return -1, -1
	}
	text = text[i+len(param):]
	def, max = -1, -1
	if m := proseDefaultRE.FindStringSubmatchIndex(text); m != nil {
		fmt.Sscan(text[m[2]:m[3]], &def)
		text = text[:m[0]]
	}
	if m := proseLimitRE.FindStringSubmatch(text); m != nil {
		fmt.Sscan(m[1]+m[2], &max)
	}
	return def, max
}

func TestListDefaultsAgree(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]struct {
			Description string `json:"description"`
			Parameters  []struct {
				Name        string `json:"name"`
				Description string `json:"description"`
				Schema      struct {
					Default any  `json:"default"` // a number, a string or a bool
					Maximum *int `json:"maximum"`
				} `json:"schema"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(oaDoc(t).JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	sdl, err := os.ReadFile("../graphql/schema/network-engineering.graphql")
	if err != nil {
		t.Fatal(err)
	}
	for _, lp := range listPages {
		if lp.gqlType == "" {
			arg, def, max, ok := graphql.RootScale(lp.root)
			if !ok || arg != lp.param || def != lp.def || max != lp.max {
				t.Errorf("GraphQL cost table, root %s: scaled by %q, default %d, max %d (listed %v); the REST %s %s: %d, %d",
					lp.root, arg, def, max, ok, lp.path, lp.param, lp.def, lp.max)
			}
		}
		for _, f := range lp.fields {
			def, max, ok := graphql.ListPage(lp.gqlType, f)
			if !ok || def != lp.def || max != lp.max {
				t.Errorf("GraphQL cost table, %s.%s: default %d, max %d (listed %v); the REST %s %s: %d, %d",
					lp.gqlType, f, def, max, ok, lp.path, lp.param, lp.def, lp.max)
			}
		}

		op, ok := doc.Paths[lp.path]["get"]
		if !ok {
			t.Errorf("OpenAPI: no GET %s", lp.path)
			continue
		}
		found := false
		for _, p := range op.Parameters {
			if p.Name != lp.param {
				continue
			}
			found = true
			if p.Schema.Default != float64(lp.def) ||
				(!lp.unbounded && (p.Schema.Maximum == nil || *p.Schema.Maximum != lp.max)) {
				t.Errorf("OpenAPI %s %s: schema default %v, maximum %v; want %d, %d",
					lp.path, lp.param, p.Schema.Default, deref(p.Schema.Maximum), lp.def, lp.max)
			}
			// A parameter's own description seldom names it: all of it is about it.
			checkProse(t, "OpenAPI "+lp.path+" "+lp.param+" description", p.Description, "", lp.def, lp.max)
		}
		if !found {
			t.Errorf("OpenAPI %s: no %s parameter", lp.path, lp.param)
		}
		// An operation's description speaks of other limits too ("At most 1000 networks"):
		// only the default is read there.
		checkProse(t, "OpenAPI "+lp.path+" description", op.Description, lp.param, lp.def, -1)

		if lp.root != "" {
			desc, ok := sdlRootDescription(string(sdl), lp.root)
			if !ok {
				t.Errorf("GraphQL schema: no description of root %s", lp.root)
				continue
			}
			if d, _ := proseDefault(desc, lp.param); d < 0 {
				t.Errorf("GraphQL schema, %s: the description states no default for %s", lp.root, lp.param)
			}
			checkProse(t, "GraphQL schema, "+lp.root, desc, lp.param, lp.def, lp.max)
			// An argument's default in the SDL itself (batchSize: Int = 25).
			if m := regexp.MustCompile(`\b` + lp.root + `\([^)]*\b` + lp.param + `: Int = (\d+)`).FindStringSubmatch(string(sdl)); m != nil && m[1] != fmt.Sprint(lp.def) {
				t.Errorf("GraphQL schema, %s(%s: Int = %s); it is %d", lp.root, lp.param, m[1], lp.def)
			}
		}
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// checkProse fails where text states a default or a limit for param other than def, max
// (max -1: any limit).
func checkProse(t *testing.T, where, text, param string, def, max int) { // param "": all of text
	t.Helper()
	d, m := proseDefault(text, param)
	if d >= 0 && d != def {
		t.Errorf("%s states a default of %d; it is %d", where, d, def)
	}
	if m >= 0 && max >= 0 && m != max {
		t.Errorf("%s states a limit of %d; it is %d", where, m, max)
	}
}

// sdlRootDescription returns the block description just before the field root( in the SDL.
func sdlRootDescription(sdl, root string) (string, bool) {
	i := strings.Index(sdl, "\n  "+root+"(")
	if i < 0 {
		return "", false
	}
	end := strings.LastIndex(sdl[:i], `"""`)
	start := strings.LastIndex(sdl[:max(end, 0)], `"""`)
	if start < 0 || end < 0 {
		return "", false
	}
	return sdl[start+3 : end], true
}
