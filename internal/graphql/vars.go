package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
)

// Variables and arguments. Every argument in the schemas is a scalar that ends up as a REST
// query parameter, so values are kept as what the parameter needs: coerced variables are
// int64, float64, bool or string, and literals are used as written.

// coerceVariables checks the request's variables against the operation's definitions and
// returns them coerced, with defaults filled in. Variables the operation does not define
// are ignored, as the spec allows.
func coerceVariables(s *ast.Schema, op *ast.OperationDefinition, raw map[string]json.RawMessage) (map[string]any, error) {
	if len(op.VariableDefinitions) == 0 {
		return nil, nil
	}
	out := make(map[string]any, len(op.VariableDefinitions))
	for _, def := range op.VariableDefinitions {
		js, given := raw[def.Variable]
		if !given {
			switch {
			case def.DefaultValue != nil:
				v, err := literalValue(def.DefaultValue)
				if err != nil {
					return nil, fmt.Errorf("Variable \"$%s\" has a default value that cannot be used: %v", def.Variable, err)
				}
				out[def.Variable] = v
			case def.Type.NonNull:
				return nil, fmt.Errorf("Variable \"$%s\" of required type %s was not provided.", def.Variable, def.Type)
			}
			continue
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("Variable \"$%s\" is not valid JSON.", def.Variable)
		}
		c, problem := coerceInput(s, def.Type, v)
		if problem != "" {
			return nil, fmt.Errorf("Variable \"$%s\" got invalid value %s; %s", def.Variable, shortJSON(js), problem)
		}
		out[def.Variable] = c
	}
	return out, nil
}

// coerceInput coerces a decoded JSON value to the input type t, or says what is wrong.
func coerceInput(s *ast.Schema, t *ast.Type, v any) (any, string) {
	if v == nil {
		if t.NonNull {
			return nil, fmt.Sprintf("expected a non-null value of type %s.", t)
		}
		return nil, ""
	}
	if t.Elem != nil {
		list, ok := v.([]any)
		if !ok { // a single value where a list is expected is a list of one (spec 3.11)
			list = []any{v}
		}
		out := make([]any, len(list))
		for i, e := range list {
			c, problem := coerceInput(s, t.Elem, e)
			if problem != "" {
				return nil, fmt.Sprintf("at index %d: %s", i, problem)
			}
			out[i] = c
		}
		return out, ""
	}
	switch t.NamedType {
	case "String":
		if str, ok := v.(string); ok {
			return str, ""
		}
		return nil, "String cannot represent a non-string value."
	case "Boolean":
		if b, ok := v.(bool); ok {
			return b, ""
		}
		return nil, "Boolean cannot represent a non-boolean value."
	case "Int":
		if n, ok := v.(json.Number); ok {
			i, err := strconv.ParseInt(string(n), 10, 64)
			if err == nil && i >= math.MinInt32 && i <= math.MaxInt32 {
				return i, ""
			}
			return nil, "Int cannot represent " + string(n) + ": it must be a whole number from -2147483648 to 2147483647."
		}
		return nil, "Int cannot represent a non-integer value."
	case "Float":
		if n, ok := v.(json.Number); ok {
			if f, err := strconv.ParseFloat(string(n), 64); err == nil {
				return f, ""
			}
		}
		return nil, "Float cannot represent a non-numeric value."
	case "ID":
		switch x := v.(type) {
		case string:
			return x, ""
		case json.Number:
			if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
				return string(x), ""
			}
		}
		return nil, "ID cannot represent a value that is neither a string nor an integer."
	case "BigInt":
		switch x := v.(type) {
		case string:
			if isInteger(x) {
				return x, ""
			}
		case json.Number:
			if isInteger(string(x)) {
				return string(x), ""
			}
		}
		// 1e300 is a whole number, but not one written as BigInt is: in digits. Only numbers
		// are shown: a string may be a key pasted in the wrong place.
		if n, ok := v.(json.Number); ok {
			return nil, "BigInt cannot represent " + cut(string(n), 40) + ": it must be a whole number written in decimal digits (at most 40)."
		}
		return nil, "BigInt cannot represent a value that is not a whole number written in decimal digits (at most 40)."
	}
	if d := s.Types[t.NamedType]; d == nil || d.Kind != ast.Scalar {
		return nil, fmt.Sprintf("%s is not an input type of this schema.", t.NamedType)
	}
	return v, ""
}

// isInteger reports whether s is an optionally signed run of digits.
func isInteger(s string) bool {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	if s == "" || len(s) > 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// literalValue turns a literal (a variable's default) into the value a coerced variable
// would hold.
func literalValue(v *ast.Value) (any, error) {
	switch v.Kind {
	case ast.IntValue:
		return strconv.ParseInt(v.Raw, 10, 64)
	case ast.FloatValue:
		return strconv.ParseFloat(v.Raw, 64)
	case ast.BooleanValue:
		return v.Raw == "true", nil
	case ast.StringValue, ast.BlockValue, ast.EnumValue:
		return v.Raw, nil
	case ast.NullValue:
		return nil, nil
	}
	return nil, fmt.Errorf("a %s default is not supported", kindName(v.Kind))
}

func kindName(k ast.ValueKind) string {
	switch k {
	case ast.ListValue:
		return "list"
	case ast.ObjectValue:
		return "object"
	case ast.Variable:
		return "variable"
	}
	return "value"
}

// paramText is an argument's value as a query parameter; ok is false for null and for an
// unset variable, which leave the parameter out.
func paramText(v *ast.Value, vars map[string]any) (string, bool) {
	if v == nil {
		return "", false
	}
	switch v.Kind {
	case ast.Variable:
		switch x := vars[v.Raw].(type) {
		case string:
			return x, true
		case int64:
			return strconv.FormatInt(x, 10), true
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64), true
		case bool:
			return strconv.FormatBool(x), true
		}
		return "", false
	case ast.IntValue, ast.FloatValue, ast.StringValue, ast.BlockValue, ast.BooleanValue, ast.EnumValue:
		return v.Raw, true
	}
	return "", false // null; lists and objects do not occur among scalar arguments
}

// appendParams appends a root field's arguments to dst as an encoded REST query string.
// A synonym fills its parameter only when the argument of that name is not given.
func appendParams(dst []byte, f *ast.Field, vars map[string]any) []byte {
	start := len(dst)
	given := func(param string) bool {
		for _, a := range f.Arguments {
			if a.Name == param {
				_, ok := paramText(a.Value, vars)
				return ok
			}
		}
		return false
	}
	for _, a := range f.Arguments {
		param := a.Name
		if p, isSynonym := synonyms[a.Name]; isSynonym {
			if given(p) {
				continue
			}
			param = p
		}
		v, ok := paramText(a.Value, vars)
		if !ok {
			continue
		}
		if len(dst) > start {
			dst = append(dst, '&')
		}
		dst = appendQueryEscaped(dst, param)
		dst = append(dst, '=')
		dst = appendQueryEscaped(dst, v)
	}
	return dst
}

// appendQueryEscaped appends s escaped as url.QueryEscape does.
func appendQueryEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			dst = append(dst, c)
		case c == ' ':
			dst = append(dst, '+')
		default:
			dst = append(dst, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
		}
	}
	return dst
}

// directiveTrue reads the if argument of @skip or @include.
func directiveTrue(d *ast.Directive, vars map[string]any) bool {
	a := d.Arguments.ForName("if")
	if a == nil || a.Value == nil {
		return false
	}
	switch a.Value.Kind {
	case ast.BooleanValue:
		return a.Value.Raw == "true"
	case ast.Variable:
		b, _ := vars[a.Value.Raw].(bool)
		return b
	}
	return false
}

// included applies @skip and @include.
func included(ds ast.DirectiveList, vars map[string]any) bool {
	for _, d := range ds {
		switch d.Name {
		case "skip":
			if directiveTrue(d, vars) {
				return false
			}
		case "include":
			if !directiveTrue(d, vars) {
				return false
			}
		}
	}
	return true
}

// shortJSON quotes client JSON in a message, shortened.
func shortJSON(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 64 {
		return string(b[:64]) + "..."
	}
	return string(b)
}

// cut returns s, or its first n bytes and "..." when it is longer.
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
