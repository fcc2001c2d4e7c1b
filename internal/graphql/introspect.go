package graphql

import (
	"bytes"
	"fmt"
	"github.com/ipatlas/ipatlas/internal/web"
	"slices"

	"github.com/vektah/gqlparser/v2/ast"
)

// Introspection is answered like any root field: by projecting a JSON answer, here one
// rendered from the schema once at start. Types refer to each other in cycles (a field's
// type has fields whose types have fields...), so a reference to a named type is rendered
// as {"$ref":"Name"} and the projector swaps in that type's full JSON when it meets one
// where a __Type is expected. LIST and NON_NULL wrappers are rendered inline; members they
// lack (fields, name...) are null, as the spec wants.
type introspection struct {
	schema []byte            // the __schema answer
	types  map[string][]byte // the __Type answer of every named type
}

const refPrefix = `{"$ref":"`

func buildIntrospection(s *ast.Schema) (*introspection, error) {
	in := &introspection{types: make(map[string][]byte, len(s.Types))}
	names := make([]string, 0, len(s.Types))
	for name := range s.Types {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		b, err := introType(nil, s, s.Types[name])
		if err != nil {
			return nil, err
		}
		in.types[name] = b
	}

	b := []byte(`{"description":null,"types":[`)
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendRef(b, name)
	}
	b = append(b, `],"queryType":`...)
	b = appendRef(b, s.Query.Name)
	b = append(b, `,"mutationType":null,"subscriptionType":null,"directives":[`...)
	dirs := make([]string, 0, len(s.Directives))
	for name := range s.Directives {
		dirs = append(dirs, name)
	}
	slices.Sort(dirs)
	for i, name := range dirs {
		if i > 0 {
			b = append(b, ',')
		}
		b = introDirective(b, s.Directives[name])
	}
	in.schema = append(b, "]}"...)
	return in, nil
}

// resolve returns the full JSON of a type reference, or raw itself when it is not one.
func (in *introspection) resolve(raw []byte) []byte {
	if !bytes.HasPrefix(raw, []byte(refPrefix)) || len(raw) < len(refPrefix)+2 {
		return raw
	}
	name := raw[len(refPrefix) : len(raw)-2]
	if full, ok := in.types[string(name)]; ok {
		return full
	}
	return raw
}

func appendRef(b []byte, name string) []byte {
	b = append(b, refPrefix...)
	b = append(b, name...) // type names are [_A-Za-z0-9]+: nothing to escape
	return append(b, `"}`...)
}

// appendTypeRef renders a field's or argument's type: wrappers inline, named types as refs.
func appendTypeRef(b []byte, t *ast.Type) []byte {
	switch {
	case t.NonNull:
		inner := *t
		inner.NonNull = false
		b = append(b, `{"kind":"NON_NULL","ofType":`...)
		return append(appendTypeRef(b, &inner), '}')
	case t.Elem != nil:
		b = append(b, `{"kind":"LIST","ofType":`...)
		return append(appendTypeRef(b, t.Elem), '}')
	}
	return appendRef(b, t.NamedType)
}

func appendDescription(b []byte, d string) []byte {
	if d == "" {
		return append(b, "null"...)
	}
	return web.AppendJSONString(b, d)
}

var kindNames = map[ast.DefinitionKind]string{
	ast.Scalar: "SCALAR", ast.Object: "OBJECT", ast.Interface: "INTERFACE", ast.Union: "UNION",
	ast.Enum: "ENUM", ast.InputObject: "INPUT_OBJECT",
}

func introType(b []byte, s *ast.Schema, d *ast.Definition) ([]byte, error) {
	kind, ok := kindNames[d.Kind]
	if !ok {
		return nil, fmt.Errorf("type %s has unknown kind %s", d.Name, d.Kind)
	}
	b = append(b, `{"kind":"`...)
	b = append(b, kind...)
	b = append(b, `","name":`...)
	b = web.AppendJSONString(b, d.Name)
	b = append(b, `,"description":`...)
	b = appendDescription(b, d.Description)
	b = append(b, `,"specifiedByURL":`...)
	if sb := d.Directives.ForName("specifiedBy"); sb != nil && sb.Arguments.ForName("url") != nil {
		b = web.AppendJSONString(b, sb.Arguments.ForName("url").Value.Raw)
	} else {
		b = append(b, "null"...)
	}

	b = append(b, `,"fields":`...)
	if d.Kind == ast.Object || d.Kind == ast.Interface {
		b = append(b, '[')
		n := 0
		for _, f := range d.Fields {
			if d == s.Query && (f.Name == "__schema" || f.Name == "__type") {
				continue // meta-fields are not listed (graphql-js does the same)
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = append(b, `{"name":`...)
			b = web.AppendJSONString(b, f.Name)
			b = append(b, `,"description":`...)
			b = appendDescription(b, f.Description)
			b = append(b, `,"args":`...)
			b = introArgs(b, f.Arguments)
			b = append(b, `,"type":`...)
			b = appendTypeRef(b, f.Type)
			b = append(b, `,"isDeprecated":false,"deprecationReason":null}`...)
		}
		b = append(b, ']')
	} else {
		b = append(b, "null"...)
	}

	b = append(b, `,"interfaces":`...)
	if d.Kind == ast.Object || d.Kind == ast.Interface {
		b = append(b, '[')
		for i, name := range d.Interfaces {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendRef(b, name)
		}
		b = append(b, ']')
	} else {
		b = append(b, "null"...)
	}

	b = append(b, `,"possibleTypes":`...)
	if d.Kind == ast.Union || d.Kind == ast.Interface {
		b = append(b, '[')
		for i, pt := range s.GetPossibleTypes(d) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendRef(b, pt.Name)
		}
		b = append(b, ']')
	} else {
		b = append(b, "null"...)
	}

	b = append(b, `,"enumValues":`...)
	if d.Kind == ast.Enum {
		b = append(b, '[')
		for i, v := range d.EnumValues {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = web.AppendJSONString(b, v.Name)
			b = append(b, `,"description":`...)
			b = appendDescription(b, v.Description)
			b = append(b, `,"isDeprecated":false,"deprecationReason":null}`...)
		}
		b = append(b, ']')
	} else {
		b = append(b, "null"...)
	}

	b = append(b, `,"inputFields":`...)
	if d.Kind == ast.InputObject {
		b = introInputValues(b, d.Fields)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"ofType":null,"isOneOf":`...)
	if d.Kind == ast.InputObject {
		b = append(b, fmt.Sprint(d.Directives.ForName("oneOf") != nil)...)
	} else {
		b = append(b, "null"...)
	}
	return append(b, '}'), nil
}

func introArgs(b []byte, args ast.ArgumentDefinitionList) []byte {
	b = append(b, '[')
	for i, a := range args {
		if i > 0 {
			b = append(b, ',')
		}
		b = introInputValue(b, a.Name, a.Description, a.Type, a.DefaultValue)
	}
	return append(b, ']')
}

func introInputValues(b []byte, fields ast.FieldList) []byte {
	b = append(b, '[')
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = introInputValue(b, f.Name, f.Description, f.Type, f.DefaultValue)
	}
	return append(b, ']')
}

func introInputValue(b []byte, name, desc string, t *ast.Type, def *ast.Value) []byte {
	b = append(b, `{"name":`...)
	b = web.AppendJSONString(b, name)
	b = append(b, `,"description":`...)
	b = appendDescription(b, desc)
	b = append(b, `,"type":`...)
	b = appendTypeRef(b, t)
	b = append(b, `,"defaultValue":`...)
	if def != nil {
		b = web.AppendJSONString(b, def.String())
	} else {
		b = append(b, "null"...)
	}
	return append(b, `,"isDeprecated":false,"deprecationReason":null}`...)
}

func introDirective(b []byte, d *ast.DirectiveDefinition) []byte {
	b = append(b, `{"name":`...)
	b = web.AppendJSONString(b, d.Name)
	b = append(b, `,"description":`...)
	b = appendDescription(b, d.Description)
	b = append(b, `,"isRepeatable":`...)
	b = append(b, fmt.Sprint(d.IsRepeatable)...)
	b = append(b, `,"locations":[`...)
	for i, l := range d.Locations {
		if i > 0 {
			b = append(b, ',')
		}
		b = web.AppendJSONString(b, string(l))
	}
	b = append(b, `],"args":`...)
	b = introArgs(b, d.Arguments)
	return append(b, '}')
}
