package graphql

import (
	"github.com/ipatlas/ipatlas/internal/web"
	"github.com/vektah/gqlparser/v2/ast"
)

// The projector writes the GraphQL value of a field from the raw REST JSON of that field:
// scalars are copied as REST wrote them, objects are rebuilt with only the selected
// members in selection order, and lists element by element. Nothing is decoded.
//
// Nulls follow the spec: a null (or a member REST omitted) in a nullable field is null; in
// a non-null field it is an error, and the null moves up to the nearest nullable field,
// whose partial output is cut off. The schemas make a field non-null only where REST always
// writes it, and a test walks REST answers against the schemas, so such an error means the
// two have drifted apart.

// selection is the set of fields that share one response key in a frame: usually one,
// several when a query selects the same field twice (directly and through a fragment).
type selection struct {
	frame []keyedField
	key   string
}

// first returns the first field of the selection.
func (s selection) first() *ast.Field {
	for _, kf := range s.frame {
		if kf.key == s.key {
			return kf.f
		}
	}
	return nil
}

// value writes the value of type t from raw (nil: REST omitted it). It reports false when
// t is non-null and the value is null, so that the caller turns itself into null.
func (x *executor) value(t *ast.Type, raw []byte, sel selection) bool {
	if x.tooBig {
		return true
	}
	if len(raw) == 0 || isNull(raw) {
		if t.NonNull {
			x.internalError(sel, "the lookup's answer has no value for this non-null field")
			return false
		}
		x.out = append(x.out, "null"...)
		return true
	}
	if t.Elem != nil {
		return x.list(t, raw, sel)
	}
	def := x.pkg.schema.Types[t.NamedType]
	if def == nil {
		x.internalError(sel, "the schema has no type "+t.NamedType)
		return x.nullOrBubble(t)
	}
	switch def.Kind {
	case ast.Object:
		return x.object(t, def, raw, sel)
	case ast.Scalar, ast.Enum:
		if !scalarFits(def, raw) {
			x.internalError(sel, "the lookup's answer has a value of the wrong kind for "+def.Name)
			return x.nullOrBubble(t)
		}
		x.out = append(x.out, raw...)
		if len(x.out) > MaxResponseBytes {
			x.tooBig = true
		}
		return true
	}
	x.internalError(sel, "the type "+def.Name+" cannot be answered")
	return x.nullOrBubble(t)
}

// nullOrBubble writes null for a nullable t, or reports false for a non-null one.
func (x *executor) nullOrBubble(t *ast.Type) bool {
	if t.NonNull {
		return false
	}
	x.out = append(x.out, "null"...)
	return true
}

func (x *executor) list(t *ast.Type, raw []byte, sel selection) bool {
	start := len(x.out)
	x.out = append(x.out, '[')
	it := newArrayIter(raw)
	for it.next() {
		if it.n > 1 {
			x.out = append(x.out, ',')
		}
		x.path = append(x.path, pathElem{index: it.n - 1})
		ok := x.value(t.Elem, it.val, sel)
		x.path = x.path[:len(x.path)-1]
		if !ok {
			x.out = x.out[:start]
			return x.nullOrBubble(t)
		}
		if x.tooBig {
			return true
		}
	}
	if it.bad {
		x.out = x.out[:start]
		x.internalError(sel, "the lookup's answer has a malformed list")
		return x.nullOrBubble(t)
	}
	x.out = append(x.out, ']')
	return true
}

func (x *executor) object(t *ast.Type, def *ast.Definition, raw []byte, sel selection) bool {
	if def.Name == "__Type" {
		raw = x.pkg.intro.resolve(raw)
	}
	// The members and the sub-selections go on the executor's stacks, one frame per
	// level (deeper levels push above and pop before this one goes on).
	mmark, fmark := len(x.members), len(x.fields)
	defer x.popFrames(mmark, fmark)
	var ok bool
	x.members, ok = scanObject(raw, x.members)
	if !ok {
		x.internalError(sel, "the lookup's answer has a malformed object")
		return x.nullOrBubble(t)
	}
	ms := x.members[mmark:]
	for _, kf := range sel.frame {
		if kf.key == sel.key {
			x.walk(def, kf.f.SelectionSet)
		}
	}
	frame := x.fields[fmark:]

	start := len(x.out)
	x.out = append(x.out, '{')
	n := 0
	for i, kf := range frame {
		if seenKey(frame[:i], kf.key) {
			continue
		}
		if n > 0 {
			x.out = append(x.out, ',')
		}
		n++
		x.out = web.AppendJSONString(x.out, kf.key)
		x.out = append(x.out, ':')
		if kf.f.Name == "__typename" {
			x.out = web.AppendJSONString(x.out, def.Name)
			continue
		}
		fd := def.Fields.ForName(kf.f.Name)
		if fd == nil { // validation makes this impossible
			x.out = append(x.out, "null"...)
			continue
		}
		var v []byte
		if vw, ok := views[typeField{def.Name, kf.f.Name}]; ok {
			v = vw(viewArgs{self: raw, obj: ms, root: x.root})
		} else {
			v = lookupMember(ms, kf.f.Name)
		}
		x.path = append(x.path, pathElem{key: kf.key})
		ok := x.value(fd.Type, v, selection{frame: frame, key: kf.key})
		x.path = x.path[:len(x.path)-1]
		if !ok {
			x.out = x.out[:start]
			return x.nullOrBubble(t)
		}
		if x.tooBig {
			return true
		}
	}
	x.out = append(x.out, '}')
	return true
}

func (x *executor) popFrames(members, fields int) {
	x.members, x.fields = x.members[:members], x.fields[:fields]
}

// scalarFits checks that a raw value is of the JSON kind the scalar is written as.
func scalarFits(def *ast.Definition, raw []byte) bool {
	c := raw[0]
	switch def.Name {
	case "String", "ID":
		return c == '"'
	case "Boolean":
		return c == 't' || c == 'f'
	case "Int", "Float", "BigInt":
		return c == '-' || (c >= '0' && c <= '9')
	}
	if def.Kind == ast.Enum {
		return c == '"'
	}
	return true
}

// internalError reports that an answer did not fit the schema; the message is for the
// operator, and the client sees which field it concerns.
func (x *executor) internalError(sel selection, what string) {
	var pos *ast.Position
	if f := sel.first(); f != nil {
		pos = f.Position
	}
	x.errs.add("Internal error: "+what+". Please report it.", pos, x.path, codeInternal, 0)
}
