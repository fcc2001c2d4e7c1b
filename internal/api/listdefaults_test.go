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
	path, param     string
	def, max        int
	root            string // the GraphQL root field with the same argument ("": described as another's)
	gqlType, fields string // the list fields the cost table counts, comma-separated
}{
	{"/data/asn-info-transit-to", "batchSize", asnDefaultBatch, asnMaxBatch, "asnInfo", "AsnInfo", "transitTo"},
	{"/data/asn-info-receiving-from", "batchSize", asnDefaultBatch, asnMaxBatch, "", "AsnInfoReceivingFrom", "receivingFrom"},
	{"/data/asn-rank-list", "batchSize", rankListDefaultBatch, listMaxBatch, "asnRankList", "AsnRankList", "asns"},
	{"/data/prefixes-list", "batchSize", prefixesDefaultBatch, listMaxBatch, "prefixesList", "PrefixesList", "prefixes"},
	{"/data/tor-exit-nodes-list", "batchSize", torExitsDefaultBatch, listMaxBatch, "torExitNodesList", "TorExitNodesList", "nodes"},
	{"/data/network-by-cidr", "subnetsBatchSize", netinfo.MaxSubnetsBatch, netinfo.MaxSubnetsBatch, "networkByCidr", "CidrNetwork", "subnets"},
	{"/data/asn-info-full", "peersCap", asnFullCap, asnFullCap, "asnInfoFull", "AsnInfoFull", "transitTo,receivingFrom"},
}

// proseDefault finds, in text after the first mention of param, the first stated default
// ("default 25", "(default 25)", "default to 25", "defaults to 25") and the first "1 to N"
// range before it; -1 where there is none.
func proseDefault(text, param string) (def, max int) {
	text = strings.Join(strings.Fields(text), " ")
	i := strings.Index(text, param)
	if i < 0 {
		return -1, -1
	}
	text = text[i+len(param):]
	def, max = -1, -1
	if m := regexp.MustCompile(`defaults? (?:to )?(\d+)`).FindStringSubmatchIndex(text); m != nil {
		fmt.Sscan(text[m[2]:m[3]], &def)
		text = text[:m[0]]
	}
	if m := regexp.MustCompile(`\b1 to (\d+)`).FindStringSubmatch(text); m != nil {
		fmt.Sscan(m[1], &max)
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
		for _, f := range strings.Split(lp.fields, ",") {
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
			// asn-info-full's peersCap leaves any value outside 1–50 at 50 rather than
			// refusing it, so its schema has no maximum.
			if p.Schema.Default != float64(lp.def) ||
				(lp.param != "peersCap" && (p.Schema.Maximum == nil || *p.Schema.Maximum != lp.max)) {
				t.Errorf("OpenAPI %s %s: schema default %v, maximum %v; want %d, %d",
					lp.path, lp.param, p.Schema.Default, deref(p.Schema.Maximum), lp.def, lp.max)
			}
			checkProse(t, "OpenAPI "+lp.path+" "+lp.param+" description", p.Description, lp.param, lp.def, lp.max)
		}
		if !found {
			t.Errorf("OpenAPI %s: no %s parameter", lp.path, lp.param)
		}
		checkProse(t, "OpenAPI "+lp.path+" description", op.Description, lp.param, lp.def, lp.max)

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
		}
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// checkProse fails where text states a default or a range for param other than def, max.
func checkProse(t *testing.T, where, text, param string, def, max int) {
	t.Helper()
	d, m := proseDefault(text, param)
	if d >= 0 && d != def {
		t.Errorf("%s says %s defaults to %d; it is %d", where, param, d, def)
	}
	if m >= 0 && m != max {
		t.Errorf("%s says %s goes up to %d; the limit is %d", where, param, m, max)
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
