package graphql

import (
	"embed"
	"fmt"
	"slices"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

//go:embed schema/*.graphql
var schemaFS embed.FS

// Package names, as in the URL /graphql/{package}. The keyed ones are also the billing
// packages of internal/quota.
const (
	IPGeolocation      = "ip-geolocation"
	ReverseGeocoding   = "reverse-geocoding"
	PhoneEmail         = "phone-email"
	NetworkEngineering = "network-engineering"
	FreeAPI            = "free-api"
)

// PackageNames lists the packages in the order the spec names them.
func PackageNames() []string {
	return []string{IPGeolocation, ReverseGeocoding, PhoneEmail, NetworkEngineering, FreeAPI}
}

// Package is one package's GraphQL endpoint: its schema, its SDL and its root fields.
// Packages are immutable and shared by every Service.
type Package struct {
	name   string
	schema *ast.Schema
	sdl    []byte
	roots  map[string]root
	intro  *introspection
}

// Name is the package name, as in the URL.
func (p *Package) Name() string { return p.name }

// Keyed reports whether the package needs an API key (every package but free-api).
func (p *Package) Keyed() bool { return p.name != FreeAPI }

// SDL is the package's schema in the GraphQL schema definition language, as served at
// /graphql/{package}/schema.graphql. The caller must not modify it.
func (p *Package) SDL() []byte { return p.sdl }

// Schema is the package's parsed schema. The caller must not modify it.
func (p *Package) Schema() *ast.Schema { return p.schema }

// RESTPaths lists the REST endpoints the package's root fields call, each once.
func (p *Package) RESTPaths() []string {
	var out []string
	for _, r := range p.roots {
		if !slices.Contains(out, r.path) {
			out = append(out, r.path)
		}
	}
	slices.Sort(out)
	return out
}

// loadPackages parses and checks every package's schema once per process: the SDL files
// are compiled in, so a failure is a build defect that every test run reports.
var loadPackages = sync.OnceValues(func() (map[string]*Package, error) {
	common, err := schemaFS.ReadFile("schema/common.graphql")
	if err != nil {
		return nil, fmt.Errorf("graphql: read shared schema: %w", err)
	}
	out := make(map[string]*Package)
	for _, name := range PackageNames() {
		p, err := loadPackage(name, common)
		if err != nil {
			return nil, err
		}
		out[name] = p
	}
	return out, nil
})

// Packages returns every package by name.
func Packages() (map[string]*Package, error) { return loadPackages() }

func loadPackage(name string, common []byte) (*Package, error) {
	own, err := schemaFS.ReadFile("schema/" + name + ".graphql")
	if err != nil {
		return nil, fmt.Errorf("graphql: read schema of %s: %w", name, err)
	}
	// The package's own file first, so the SDL shows its Query before the shared types.
	doc, err := parser.ParseSchemas(validator.Prelude,
		&ast.Source{Name: name + ".graphql", Input: string(own)},
		&ast.Source{Name: "common.graphql", Input: string(common)})
	if err != nil {
		return nil, fmt.Errorf("graphql: parse schema of %s: %w", name, err)
	}
	doc.Definitions = pruneUnreachable(doc.Definitions)
	// Format before validating: validation appends __schema and __type to Query's fields.
	sdl := formatSDL(name, doc.Definitions)
	schema, err := validator.ValidateSchemaDocument(doc)
	if err != nil {
		return nil, fmt.Errorf("graphql: schema of %s: %w", name, err)
	}
	if err := checkSchema(name, schema); err != nil {
		return nil, err
	}
	p := &Package{name: name, schema: schema, sdl: sdl, roots: rootTable[name]}
	p.intro, err = buildIntrospection(schema)
	if err != nil {
		return nil, fmt.Errorf("graphql: introspection of %s: %w", name, err)
	}
	return p, nil
}

// pruneUnreachable keeps the built-in definitions and the types Query reaches through
// fields and arguments, so each package's schema (and introspection) shows only its own
// types although they are written once in common.graphql.
func pruneUnreachable(defs ast.DefinitionList) ast.DefinitionList {
	byName := make(map[string]*ast.Definition, len(defs))
	for _, d := range defs {
		byName[d.Name] = d
	}
	reached := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		d, ok := byName[name]
		if !ok || reached[name] {
			return
		}
		reached[name] = true
		for _, f := range d.Fields {
			visit(f.Type.Name())
			for _, a := range f.Arguments {
				visit(a.Type.Name())
			}
		}
	}
	visit("Query")
	var out ast.DefinitionList
	for _, d := range defs {
		if reached[d.Name] || d.BuiltIn {
			out = append(out, d)
		}
	}
	return out
}

// checkSchema holds the schema to what the executor supports, and the root table to the
// schema: every root field has a REST endpoint and every table entry a root field.
func checkSchema(name string, s *ast.Schema) error {
	if s.Query == nil || s.Mutation != nil || s.Subscription != nil {
		return fmt.Errorf("graphql: schema of %s: want a Query type and no mutations or subscriptions", name)
	}
	roots := rootTable[name]
	for _, f := range s.Query.Fields {
		if _, ok := roots[f.Name]; !ok && !isIntrospectionField(f.Name) {
			return fmt.Errorf("graphql: schema of %s: root field %s has no REST endpoint in the root table", name, f.Name)
		}
	}
	for field := range roots {
		if s.Query.Fields.ForName(field) == nil {
			return fmt.Errorf("graphql: root table of %s names %s, which its schema lacks", name, field)
		}
	}
	for _, t := range s.Types {
		if t.BuiltIn {
			continue
		}
		switch t.Kind {
		case ast.Object, ast.Scalar:
		default:
			// The projector knows objects and scalars; the REST bodies need nothing else.
			return fmt.Errorf("graphql: schema of %s: type %s is a %s; only objects and scalars are supported", name, t.Name, t.Kind)
		}
		for _, f := range t.Fields {
			if f.Directives.ForName("deprecated") != nil {
				return fmt.Errorf("graphql: schema of %s: %s.%s is deprecated; introspection assumes nothing is", name, t.Name, f.Name)
			}
			if t.Name != "Query" && len(f.Arguments) > 0 {
				return fmt.Errorf("graphql: schema of %s: %s.%s takes arguments; only root fields may", name, t.Name, f.Name)
			}
		}
	}
	return nil
}

func isIntrospectionField(name string) bool {
	return name == "__schema" || name == "__type" || name == "__typename"
}
