package graphql

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// validationRules are gqlparser's rules and scalarLiterals. Validation only reads them.
var validationRules = func() *rules.Rules {
	r := rules.NewDefaultRules()
	r.AddRule("ScalarLiterals", scalarLiterals)
	return r
}()

// scalarLiterals refuses the literals gqlparser lets through: an Int outside 32 bits (the
// spec's Int, 3.5.1), and a BigInt that is not a whole number (gqlparser checks no custom
// scalar). A variable's value gets the same checks in coerceInput, with the same messages,
// so a value is refused alike whether written in the query or passed as a variable.
func scalarLiterals(observers *core.Events, addError core.AddErrFunc) {
	observers.OnValue(func(_ *core.Walker, v *ast.Value) {
		if v.Definition == nil || v.Definition.Name != "Int" && v.Definition.Name != "BigInt" {
			return
		}
		var jv any // the literal as a decoded JSON variable would hold it
		switch v.Kind {
		case ast.Variable, ast.NullValue, ast.ListValue:
			return // variables are coerced with their values; null and lists by gqlparser
		case ast.IntValue, ast.FloatValue:
			jv = json.Number(v.Raw)
		case ast.BooleanValue:
			jv = v.Raw == "true"
		default:
			jv = v.Raw
		}
		if _, problem := coerceInput(nil, &ast.Type{NamedType: v.Definition.Name}, jv); problem != "" {
			addError(core.Message("%s", problem), core.At(v.Position))
		}
	})
}

// document returns the parsed and validated query, from the cache when it can.
func (s *Service) document(p *Package, query string) *cacheEntry {
	if e, ok := s.cache.get(p.name, query); ok {
		return e
	}
	e := parseAndValidate(p, query)
	s.cache.put(e)
	return e
}

func parseAndValidate(p *Package, query string) *cacheEntry {
	e := &cacheEntry{key: cacheKey{p.name, query}}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Name: "query", Input: query}, MaxTokens)
	if err != nil {
		e.errs, e.code = asGQLErrors(err), codeParse
		for _, ge := range e.errs {
			if strings.HasPrefix(ge.Message, "exceeded token limit") {
				ge.Message = fmt.Sprintf("The query is too long: at most %d tokens (names, values and punctuation) are allowed. Split it into several requests.", MaxTokens)
			} else {
				ge.Message = "Syntax error: " + ge.Message + "."
			}
		}
		return e
	}
	if err, code := checkSelections(doc); err != nil {
		e.errs, e.code = gqlerror.List{err}, code
		return e
	}
	if errs := crossPackage(p, doc); len(errs) > 0 {
		e.errs, e.code = errs, codeCrossPkg
		return e
	}
	if errs := validator.ValidateWithRules(p.schema, doc, validationRules); len(errs) > 0 {
		e.errs, e.code = errs, codeValidation
		return e
	}
	e.doc = doc
	return e
}

func asGQLErrors(err error) gqlerror.List {
	if ge, ok := err.(*gqlerror.Error); ok {
		return gqlerror.List{ge}
	}
	if list, ok := err.(gqlerror.List); ok {
		return list
	}
	return gqlerror.List{gqlerror.Wrap(err)}
}

// crossPackage reports root fields that belong to another package, before validation
// would call them merely unknown: the fix is another URL, and the message names it.
func crossPackage(p *Package, doc *ast.QueryDocument) gqlerror.List {
	var errs gqlerror.List
	seen := map[string]bool{}
	var walk func(ss ast.SelectionSet)
	walk = func(ss ast.SelectionSet) {
		for _, sel := range ss {
			switch s := sel.(type) {
			case *ast.Field:
				if p.schema.Query.Fields.ForName(s.Name) != nil || isIntrospectionField(s.Name) {
					continue
				}
				others := servedBy(s.Name, p.name)
				if len(others) == 0 {
					continue // unknown everywhere: the validator's message suggests names
				}
				urls := make([]string, len(others))
				for i, o := range others {
					urls[i] = "/graphql/" + o
				}
				ge := gqlerror.ErrorPosf(s.Position, "%s is served by %s, not /graphql/%s: each package has its own GraphQL endpoint, and a query cannot cross packages. Send this field to %s.",
					s.Name, strings.Join(urls, " and "), p.name, strings.Join(urls, " or "))
				errs = append(errs, ge)
			case *ast.InlineFragment:
				walk(s.SelectionSet)
			case *ast.FragmentSpread:
				if seen[s.Name] {
					continue
				}
				seen[s.Name] = true
				if f := doc.Fragments.ForName(s.Name); f != nil && f.TypeCondition == "Query" {
					walk(f.SelectionSet)
				}
			}
		}
	}
	for _, op := range doc.Operations {
		if op.Operation == ast.Query || op.Operation == "" {
			walk(op.SelectionSet)
		}
	}
	return errs
}
