package graphql

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

func readTestdata(name string) (string, error) {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	return string(b), err
}

// introType is the part of an introspected type this test compares with the schema.
type introTypeJSON struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Fields []struct {
		Name string          `json:"name"`
		Args []introArgJSON  `json:"args"`
		Type json.RawMessage `json:"type"`
	} `json:"fields"`
}

type introArgJSON struct {
	Name string          `json:"name"`
	Type json.RawMessage `json:"type"`
}

// typeString renders an introspected type reference as SDL (String!, [Country!]).
func typeString(t *testing.T, raw json.RawMessage) string {
	var ref struct {
		Kind   string          `json:"kind"`
		Name   *string         `json:"name"`
		OfType json.RawMessage `json:"ofType"`
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	switch ref.Kind {
	case "NON_NULL":
		return typeString(t, ref.OfType) + "!"
	case "LIST":
		return "[" + typeString(t, ref.OfType) + "]"
	}
	if ref.Name == nil {
		t.Fatalf("named type without a name: %s", raw)
	}
	return *ref.Name
}

// TestIntrospectionMatchesSchema runs graphql-js's introspection query on every package and
// checks the answer against the schema: every type, field, argument and type reference.
func TestGraphQLIntrospectionMatchesSchema(t *testing.T) {
	s, f := newTestService(t)
	q, err := readTestdata("introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range PackageNames() {
		t.Run(name, func(t *testing.T) {
			p := s.pkgs[name]
			res := run(t, s, name, q, nil)
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %+v", res.Errors)
			}
			var data struct {
				Schema struct {
					QueryType    struct{ Name string } `json:"queryType"`
					MutationType *struct{}             `json:"mutationType"`
					Types        []introTypeJSON       `json:"types"`
					Directives   []struct {
						Name      string   `json:"name"`
						Locations []string `json:"locations"`
					} `json:"directives"`
				} `json:"__schema"`
			}
			if err := json.Unmarshal(res.Data, &data); err != nil {
				t.Fatal(err)
			}
			if data.Schema.QueryType.Name != "Query" || data.Schema.MutationType != nil {
				t.Errorf("root types %+v", data.Schema)
			}
			var names []string
			for _, it := range data.Schema.Types {
				names = append(names, it.Name)
				def := p.schema.Types[it.Name]
				if def == nil {
					t.Errorf("introspection lists %s, which the schema lacks", it.Name)
					continue
				}
				if it.Kind != kindNames[def.Kind] {
					t.Errorf("%s: kind %s, want %s", it.Name, it.Kind, kindNames[def.Kind])
				}
				var want, got []string
				for _, fd := range def.Fields {
					if fd.Name == "__schema" || fd.Name == "__type" {
						continue
					}
					want = append(want, fieldSignature(fd.Name, fd.Arguments, fd.Type.String()))
				}
				for _, fj := range it.Fields {
					var args ast.ArgumentDefinitionList
					for _, a := range fj.Args {
						args = append(args, &ast.ArgumentDefinition{Name: a.Name, Type: ast.NamedType(typeString(t, a.Type), nil)})
					}
					got = append(got, fieldSignature(fj.Name, args, typeString(t, fj.Type)))
				}
				if def.Kind != ast.Object && def.Kind != ast.Interface {
					want = nil
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s fields (-schema +introspection):\n%s", it.Name, diff)
				}
			}
			var want []string
			for n := range p.schema.Types {
				want = append(want, n)
			}
			slices.Sort(want)
			if diff := cmp.Diff(want, names); diff != "" {
				t.Errorf("types (-schema +introspection):\n%s", diff)
			}
			if len(data.Schema.Directives) != len(p.schema.Directives) {
				t.Errorf("%d directives, want %d", len(data.Schema.Directives), len(p.schema.Directives))
			}
		})
	}
	if calls := f.callList(); len(calls) > 0 {
		t.Errorf("introspection called REST: %v", calls)
	}
}

func fieldSignature(name string, args ast.ArgumentDefinitionList, typ string) string {
	var as []string
	for _, a := range args {
		as = append(as, a.Name+": "+a.Type.String())
	}
	return name + "(" + strings.Join(as, ", ") + "): " + typ
}

func TestGraphQLTypeIntrospection(t *testing.T) {
	s, _ := newTestService(t)
	res := run(t, s, IPGeolocation, `{ __type(name: "Location") { kind name fields { name type { kind name ofType { kind name } } } } none: __type(name: "Nope") { name } }`, nil)
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	var data struct {
		Type struct {
			Kind   string
			Name   string
			Fields []struct {
				Name string
				Type struct {
					Kind   string
					Name   *string
					OfType *struct{ Kind, Name string }
				}
			}
		} `json:"__type"`
		None *struct{} `json:"none"`
	}
	if err := json.Unmarshal(res.Data, &data); err != nil {
		t.Fatal(err)
	}
	if data.Type.Kind != "OBJECT" || data.Type.Name != "Location" || data.None != nil {
		t.Fatalf("got %s", res.Data)
	}
	var sawCountry, sawLocalityInfo bool
	for _, f := range data.Type.Fields {
		switch f.Name {
		case "country":
			sawCountry = f.Type.Kind == "SCALAR" && *f.Type.Name == "String"
		case "localityInfo":
			sawLocalityInfo = f.Type.Kind == "NON_NULL" && f.Type.Name == nil && f.Type.OfType.Name == "LocalityInfo"
		}
	}
	if !sawCountry || !sawLocalityInfo {
		t.Errorf("Location fields %s", res.Data)
	}
}

// TestSDLLoads checks that each served SDL file is a complete schema equal to the one the
// server executes (so clients can generate code from it), and that it documents the
// GraphQL-only Location.country.
func TestGraphQLSDLLoads(t *testing.T) {
	ps, err := Packages()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range PackageNames() {
		t.Run(name, func(t *testing.T) {
			p := ps[name]
			loaded, err := gqlparser.LoadSchema(&ast.Source{Name: name + ".graphql", Input: string(p.SDL())})
			if err != nil {
				t.Fatalf("served SDL does not load: %v", err)
			}
			sig := func(s *ast.Schema) []string {
				var out []string
				for _, d := range s.Types {
					if d.BuiltIn {
						continue
					}
					for _, f := range d.Fields {
						out = append(out, d.Name+"."+fieldSignature(f.Name, f.Arguments, f.Type.String()))
					}
					if d.Kind == ast.Scalar {
						out = append(out, "scalar "+d.Name)
					}
				}
				slices.Sort(out)
				return out
			}
			if diff := cmp.Diff(sig(p.schema), sig(loaded)); diff != "" {
				t.Errorf("served SDL differs from the executed schema (-executed +served):\n%s", diff)
			}
			if !strings.HasPrefix(string(p.SDL()), "# ipatlas GraphQL schema of the "+name+" package") {
				t.Errorf("SDL header: %.80s", p.SDL())
			}
		})
	}
	if !strings.Contains(string(ps[IPGeolocation].SDL()), "GraphQL only (REST has no location.country)") {
		t.Error("the SDL does not document Location.country")
	}
}

// TestRootsPerPackage pins the root fields of each package, so a change is deliberate.
func TestGraphQLRootsPerPackage(t *testing.T) {
	want := map[string][]string{
		IPGeolocation:      {"asnInfo", "countries", "countryInfo", "hazardReport", "ipData", "ipGeolocation", "networkByIp", "timeZone", "timezoneInfo", "userAgent", "userRisk"},
		ReverseGeocoding:   {"locationData", "reverseGeocode"},
		PhoneEmail:         {"phoneNumber", "phoneNumberByIp"},
		NetworkEngineering: {"asnInfo", "asnInfoFull", "asnInfoReceivingFrom", "asnRankList", "ipV4", "ipV6", "network", "networkByCidr", "networkByIp", "prefixesList", "torExitNodesList"},
		FreeAPI:            {"amIRoaming", "clientInfo", "clientIp", "reverseGeocodeClient"},
	}
	ps, err := Packages()
	if err != nil {
		t.Fatal(err)
	}
	for name, roots := range want {
		var got []string
		for _, f := range ps[name].schema.Query.Fields {
			if !isIntrospectionField(f.Name) {
				got = append(got, f.Name)
			}
		}
		slices.Sort(got)
		if diff := cmp.Diff(roots, got); diff != "" {
			t.Errorf("%s roots (-want +got):\n%s", name, diff)
		}
		if ps[name].Keyed() != (name != FreeAPI) {
			t.Errorf("%s keyed %v", name, ps[name].Keyed())
		}
	}
}
