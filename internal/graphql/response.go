package graphql

import (
	"github.com/ipatlas/ipatlas/internal/web"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Error codes in errors[].extensions.code.
const (
	codeParse      = "GRAPHQL_PARSE_FAILED"
	codeValidation = "GRAPHQL_VALIDATION_FAILED"
	codeCrossPkg   = "WRONG_PACKAGE"
	codeBadInput   = "BAD_USER_INPUT"
	codeOperation  = "OPERATION_NOT_FOUND"
	codeTooBig     = "RESPONSE_TOO_LARGE"
	codeREST       = "LOOKUP_FAILED"
	codeInternal   = "INTERNAL_ERROR"
)

// pathElem is one step of an error's path: a response key, or a list index when key is "".
type pathElem struct {
	key   string
	index int
}

// errList renders errors[] entries as they occur.
type errList struct {
	b []byte
	n int
}

// add appends one error. pos and path may be nil; status is the REST status behind a
// failed lookup, or 0.
func (e *errList) add(msg string, pos *ast.Position, path []pathElem, code string, status int) {
	e.addRetry(msg, pos, path, code, status, 0)
}

// addRetry is add with the seconds a refused lookup asks the client to wait
// (extensions.retryAfter, written when over 0).
func (e *errList) addRetry(msg string, pos *ast.Position, path []pathElem, code string, status, retryAfter int) {
	if e.n > 0 {
		e.b = append(e.b, ',')
	}
	e.n++
	e.b = append(e.b, `{"message":`...)
	e.b = web.AppendJSONString(e.b, web.RedactKeys(msg)) // messages quote the query, which may hold a key
	if pos != nil && pos.Line > 0 {
		e.b = append(e.b, `,"locations":[{"line":`...)
		e.b = strconv.AppendInt(e.b, int64(pos.Line), 10)
		e.b = append(e.b, `,"column":`...)
		e.b = strconv.AppendInt(e.b, int64(pos.Column), 10)
		e.b = append(e.b, "}]"...)
	}
	if len(path) > 0 {
		e.b = append(e.b, `,"path":[`...)
		for i, p := range path {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			if p.key == "" {
				e.b = strconv.AppendInt(e.b, int64(p.index), 10)
			} else {
				e.b = web.AppendJSONString(e.b, p.key)
			}
		}
		e.b = append(e.b, ']')
	}
	e.b = append(e.b, `,"extensions":{"code":`...)
	e.b = web.AppendJSONString(e.b, code)
	if status != 0 {
		e.b = append(e.b, `,"status":`...)
		e.b = strconv.AppendInt(e.b, int64(status), 10)
	}
	if retryAfter > 0 {
		e.b = append(e.b, `,"retryAfter":`...)
		e.b = strconv.AppendInt(e.b, int64(retryAfter), 10)
	}
	e.b = append(e.b, "}}"...)
}

// addGQL appends the errors of the parser or the validator.
func (e *errList) addGQL(errs gqlerror.List, code string) {
	for _, err := range errs {
		var pos *ast.Position
		if len(err.Locations) > 0 {
			pos = &ast.Position{Line: err.Locations[0].Line, Column: err.Locations[0].Column}
		}
		e.add(err.Message, pos, nil, code, 0)
	}
}

// response assembles the body: errors first when there are any (as the spec suggests),
// then data unless the request failed before execution (data is nil then).
func response(dst []byte, errs *errList, data []byte) []byte {
	dst = append(dst, '{')
	if errs.n > 0 {
		dst = append(dst, `"errors":[`...)
		dst = append(dst, errs.b...)
		dst = append(dst, ']')
		if data != nil {
			dst = append(dst, ',')
		}
	}
	if data != nil {
		dst = append(dst, `"data":`...)
		dst = append(dst, data...)
	}
	return append(dst, '}')
}
