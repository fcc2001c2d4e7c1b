package graphql

import (
	"fmt"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
)

// Limits (see the package doc for how they are counted).
const (
	MaxBodyBytes     = 64 << 10 // request body
	MaxTokens        = 2000     // GraphQL tokens in a query
	MaxDepth         = 10       // nesting of fields, introspection excepted
	MaxCost          = 5000     // estimated work of a query
	RootCost         = 100      // a root field: one REST lookup, or an introspection answer
	DefaultListSize  = 10       // elements assumed for a list with no better bound
	MaxResponseBytes = 2 << 20  // the data of one response
	CacheEntries     = 512      // parsed and validated queries kept per Service
	CacheMaxQuery    = 4 << 10  // longer queries are not cached

	// Checked before validation, whose cost they bound (selections.go).
	MaxSameName   = 10     // fields sharing a response name in one merged selection set
	MaxSpreads    = 32     // fragment spreads merged into one selection set, per use
	MaxSelections = 10_000 // selections in a document, fragments expanded per use
)

// listSize bounds a list field for the cost estimate: fixed elements, or the value of a
// page size argument of the root field (def when absent, at most max, which is the REST
// endpoint's hard limit: a larger value is refused there). With outsideIsDef, a value
// outside 1..maxValue is not refused but answered as def (asn-info-full's peersCap).
type listSize struct {
	fixed         int
	arg           string
	def, maxValue int
	outsideIsDef  bool
}

var listSizes = map[typeField]listSize{
	{"Query", "countries"}:                    {fixed: 250},
	{"AsnInfo", "transitTo"}:                  {arg: "batchSize", def: 25, maxValue: 50},
	{"AsnInfoReceivingFrom", "receivingFrom"}: {arg: "batchSize", def: 25, maxValue: 50},
	// The lists of the network-engineering lists' pages: batchSize, each REST default.
	{"AsnRankList", "asns"}:       {arg: "batchSize", def: 15, maxValue: 1000},
	{"PrefixesList", "prefixes"}:  {arg: "batchSize", def: 25, maxValue: 1000},
	{"TorExitNodesList", "nodes"}: {arg: "batchSize", def: 50, maxValue: 1000},
	// Both of asnInfoFull's lists: peersCap of each, 50 when absent or out of range.
	{"AsnInfoFull", "receivingFrom"}: {arg: "peersCap", def: 50, maxValue: 50, outsideIsDef: true},
	{"AsnInfoFull", "transitTo"}:     {arg: "peersCap", def: 50, maxValue: 50, outsideIsDef: true},
	{"CidrNetwork", "subnets"}:       {arg: "subnetsBatchSize", def: 20, maxValue: 20},
	// The networks of a range: a page-sized list at the top; the nested lists count once,
	// since the whole tree holds at most 1000 networks (netinfo.MaxNetworks) and the
	// response size limit bounds the rest.
	{"NetworksByCidr", "networks"}: {fixed: 20},
	{"CidrItem", "networks"}:       {fixed: 1},
	// A country's short lists, at the data's longest (Singapore's four languages; Türkiye,
	// Russia, Egypt and a few more on two continents; TestCountryListBounds checks the real
	// data), so that a narrow selection over all 250 countries stays under MaxCost.
	{"Country", "isoAdminLanguages"}: {fixed: 4},
	{"Country", "continents"}:        {fixed: 2},
	// At most 20 (useragent.Languages).
	{"ClientInfo", "userLanguages"}: {fixed: 20},
}

// ListBound returns the number of elements the cost estimate counts for the list field
// typ.field when that is a fixed number, for tests that check it against the data.
func ListBound(typ, field string) (int, bool) {
	ls, ok := listSizes[typeField{typ, field}]
	return ls.fixed, ok && ls.fixed > 0
}

// ListPage returns the page size the cost estimate counts for the paged list field
// typ.field when its argument is absent, and the largest it counts, for tests that tie them
// to the REST defaults and limits.
func ListPage(typ, field string) (def, maxValue int, ok bool) {
	ls, ok := listSizes[typeField{typ, field}]
	return ls.def, ls.maxValue, ok && ls.arg != ""
}

// rootScale names the root fields whose lookup grows with an argument, and the argument:
// a range's networks are nested depthLimit levels deep, up to netinfo.MaxNetworks of them,
// each rendered by the REST answer the field projects (::/0 at depth 5 took about 7 ms
// where depth 1 took 0.1), so such a root costs RootCost times the argument (1 to maxValue,
// def when absent).
var rootScale = map[string]listSize{
	"networkByCidr": {arg: "depthLimit", def: 1, maxValue: 5},
}

// RootScale returns the argument that a root field's cost grows with, its value when absent
// and the largest counted, for tests that tie them to the REST defaults and limits.
func RootScale(root string) (arg string, def, maxValue int, ok bool) {
	sc, ok := rootScale[root]
	return sc.arg, sc.def, sc.maxValue, ok
}

// limitError is a query over a limit, reported before anything runs.
type limitError struct {
	code string
	msg  string
	pos  *ast.Position
}

// checkLimits measures the operation's depth and cost.
func checkLimits(op *ast.OperationDefinition, doc *ast.QueryDocument, vars map[string]any) *limitError {
	d := depthMeter{doc: doc, memo: map[string]int{}}
	if depth, at := d.selectionSet(op.SelectionSet); depth > MaxDepth {
		return &limitError{code: "DEPTH_LIMIT_EXCEEDED", pos: at,
			msg: fmt.Sprintf("The query nests %d fields deep; at most %d levels are allowed. Split it, or select fewer nested objects.", depth, MaxDepth)}
	}
	c := costMeter{doc: doc, vars: vars}
	if cost := c.selectionSet(op.SelectionSet, true, false); cost > MaxCost {
		return &limitError{code: "COST_LIMIT_EXCEEDED",
			msg: fmt.Sprintf("The query is too costly: its estimated cost is over %d, the limit. Each root field costs %d (networkByCidr that times its depthLimit), each other field 1, and fields inside lists count once per element (page size, 50 for asnInfoFull's lists by default, 250 for countries, 20 for a range's networks, 4 for a country's languages, 2 for its continents, %d for other lists). Ask for fewer root fields, fields or list elements, or split the query.", MaxCost, RootCost, DefaultListSize)}
	}
	return nil
}

// depthMeter measures the deepest field nesting; fragments are measured once.
type depthMeter struct {
	doc  *ast.QueryDocument
	memo map[string]int
	// guard against fragment cycles, which validation already refused
	active map[string]bool
}

// selectionSet returns the depth of ss and the position of a deepest field.
func (d *depthMeter) selectionSet(ss ast.SelectionSet) (int, *ast.Position) {
	best, at := 0, (*ast.Position)(nil)
	for _, sel := range ss {
		n, pos := 0, sel.GetPosition()
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" {
				continue // bounded by the validator's introspection depth rule
			}
			sub, subAt := d.selectionSet(s.SelectionSet)
			n = 1 + sub
			if subAt != nil {
				pos = subAt
			}
		case *ast.InlineFragment:
			n, pos = d.selectionSet(s.SelectionSet)
		case *ast.FragmentSpread:
			if v, ok := d.memo[s.Name]; ok {
				n = v
				break
			}
			f := d.doc.Fragments.ForName(s.Name)
			if f == nil || d.active[s.Name] {
				continue
			}
			if d.active == nil {
				d.active = map[string]bool{}
			}
			d.active[s.Name] = true
			n, pos = d.selectionSet(f.SelectionSet)
			delete(d.active, s.Name)
			d.memo[s.Name] = n
		}
		if n > best {
			best, at = n, pos
		}
	}
	return best, at
}

// costMeter estimates cost; arithmetic saturates just over MaxCost, so no query can
// overflow it, and fragments are re-walked per use, which the token limit bounds.
type costMeter struct {
	doc      *ast.QueryDocument
	vars     map[string]any
	rootArgs ast.ArgumentList
	depth    int
}

const costCap = MaxCost + 1

func satAdd(a, b int) int { return min(a+b, costCap) }
func satMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > costCap/b {
		return costCap
	}
	return min(a*b, costCap)
}

func (c *costMeter) selectionSet(ss ast.SelectionSet, atRoot, intro bool) int {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > 64 { // deeper than any valid query within MaxDepth and the validator's rules
		return costCap
	}
	total := 0
	for _, sel := range ss {
		switch s := sel.(type) {
		case *ast.Field:
			total = satAdd(total, c.field(s, atRoot, intro))
		case *ast.InlineFragment:
			total = satAdd(total, c.selectionSet(s.SelectionSet, atRoot, intro))
		case *ast.FragmentSpread:
			if f := c.doc.Fragments.ForName(s.Name); f != nil {
				total = satAdd(total, c.selectionSet(f.SelectionSet, atRoot, intro))
			}
		}
		if total >= costCap {
			return costCap
		}
	}
	return total
}

func (c *costMeter) field(f *ast.Field, atRoot, intro bool) int {
	if f.Name == "__typename" {
		return 1
	}
	base := 1
	if atRoot {
		base = RootCost
		intro = f.Name == "__schema" || f.Name == "__type"
		c.rootArgs = f.Arguments
		if sc, ok := rootScale[f.Name]; ok {
			base = satMul(RootCost, c.argSize(sc))
		}
	}
	if len(f.SelectionSet) == 0 {
		return base
	}
	mult := 1
	if f.Definition != nil && f.Definition.Type.Elem != nil && !intro {
		mult = c.listSize(f)
	}
	return satAdd(base, satMul(mult, c.selectionSet(f.SelectionSet, false, intro)))
}

func (c *costMeter) listSize(f *ast.Field) int {
	typ := ""
	if f.ObjectDefinition != nil {
		typ = f.ObjectDefinition.Name
	}
	ls, ok := listSizes[typeField{typ, f.Name}]
	switch {
	case !ok:
		return DefaultListSize
	case ls.fixed > 0:
		return ls.fixed
	}
	return c.argSize(ls)
}

// argSize is the value of the root field's argument ls.arg, ls.def when absent, within 1 to
// ls.maxValue.
func (c *costMeter) argSize(ls listSize) int {
	n := ls.def
	if a := c.rootArgs.ForName(ls.arg); a != nil {
		if v, ok := intArg(a.Value, c.vars); ok && (!ls.outsideIsDef || 1 <= v && v <= ls.maxValue) {
			n = v
		}
	}
	return max(1, min(n, ls.maxValue))
}

// intArg reads an integer argument, literal or variable.
func intArg(v *ast.Value, vars map[string]any) (int, bool) {
	if v == nil {
		return 0, false
	}
	switch v.Kind {
	case ast.IntValue:
		n, err := strconv.Atoi(v.Raw)
		return n, err == nil
	case ast.Variable:
		switch n := vars[v.Raw].(type) {
		case int64:
			return int(n), true
		}
	}
	return 0, false
}
