package graphql

import (
	"encoding/json"
	"fmt"
	"github.com/ipatlas/ipatlas/internal/web"
	"net/http"
	"strconv"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
)

// executor runs one operation: each root field is one Answerer call, and its value is the
// projection of that answer onto the field's selection set (project.go).
type executor struct {
	pkg  *Package
	doc  *ast.QueryDocument
	vars map[string]any
	r    *http.Request
	ans  Answerer
	errs *errList

	out     []byte
	root    []byte // the whole REST answer of the root field being projected
	path    []pathElem
	fields  []keyedField // stack of collected selections, one frame per object level
	members []member     // stack of scanned REST objects, one frame per object level
	query   []byte       // scratch for REST query strings
	tooBig  bool         // out passed MaxResponseBytes: stop, and answer with an error
}

// execPool recycles executors with their scratch stacks and output buffer: a request
// then allocates almost nothing of its own.
var execPool = sync.Pool{New: func() any { return &executor{out: make([]byte, 0, 4096)} }}

func getExecutor() *executor { return execPool.Get().(*executor) }

// maxPooled bounds the buffers kept for reuse: a rare large answer (all countries with
// every field) should not pin its memory in the pools.
const maxPooled = 256 << 10

// put returns x to the pool, unless it grew for an unusually large answer.
func (x *executor) put() {
	if cap(x.out) > maxPooled || cap(x.fields) > 4096 || cap(x.members) > 4096 {
		return
	}
	*x = executor{out: x.out[:0], path: x.path[:0], fields: x.fields[:0], members: x.members[:0], query: x.query[:0]}
	execPool.Put(x)
}

// keyedField is a selected field under its response key (its alias, or its name).
type keyedField struct {
	key string
	f   *ast.Field
}

// run executes the operation and returns its data object; it stays valid until put.
func (x *executor) run(op *ast.OperationDefinition) []byte {
	x.out = x.out[:0]
	q := x.pkg.schema.Query
	mark := len(x.fields)
	x.walk(q, op.SelectionSet)
	frame := x.fields[mark:]

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
		x.path = append(x.path[:0], pathElem{key: kf.key})
		if x.r.Context().Err() != nil {
			// The request's time limit has passed (or the client left): the fields already
			// answered keep their data, as when the volume runs out, and each field left
			// gets the REST answer's status for a request stopped at its limit.
			x.errs.add("The request took too long and was stopped before this field was answered. Please try again, or split the query.", kf.f.Position, x.path, codeREST, http.StatusServiceUnavailable)
			x.out = append(x.out, "null"...)
			continue
		}
		if !x.rootField(q, frame, kf) {
			// A non-null root field failed; no root field is non-null in these schemas,
			// but keep the spec's rule: the error reaches data.
			x.out = append(x.out[:0], "null"...)
			return x.out
		}
		if x.tooBig {
			break
		}
	}
	if x.tooBig {
		x.errs.add(fmt.Sprintf("The answer would be larger than %d bytes, the limit. Select fewer fields or list elements, or split the query.", MaxResponseBytes), nil, nil, codeTooBig, 0)
		x.out = append(x.out[:0], "null"...)
		return x.out
	}
	x.out = append(x.out, '}')
	return x.out
}

// rootField writes the value of one root field (all the fields of frame under kf.key).
func (x *executor) rootField(q *ast.Definition, frame []keyedField, kf keyedField) bool {
	f := kf.f
	sel := selection{frame: frame, key: kf.key}
	switch f.Name {
	case "__typename":
		x.out = web.AppendJSONString(x.out, q.Name)
		return true
	case "__schema":
		x.root = nil
		return x.value(f.Definition.Type, x.pkg.intro.schema, sel)
	case "__type":
		name, _ := paramText(argValue(f, "name"), x.vars)
		x.root = nil
		return x.value(f.Definition.Type, x.pkg.intro.types[name], sel)
	}
	rt, ok := x.pkg.roots[f.Name]
	if !ok || f.Definition == nil { // validation makes this impossible
		x.errs.add("Internal error: the field "+f.Name+" has no lookup.", f.Position, x.path, codeInternal, 0)
		x.out = append(x.out, "null"...)
		return true
	}
	x.query = appendParams(x.query[:0], f, x.vars)
	rep := x.ans.Answer(x.r, rt.path, string(x.query))
	if rep.Status != http.StatusOK {
		x.errs.addRetry(restMessage(rep.Status, rep.Body), f.Position, x.path, codeREST, rep.Status, rep.RetryAfter)
		return x.nullOrBubble(f.Definition.Type)
	}
	x.root = rep.Body
	return x.value(f.Definition.Type, rep.Body, sel)
}

func argValue(f *ast.Field, name string) *ast.Value {
	if a := f.Arguments.ForName(name); a != nil {
		return a.Value
	}
	return nil
}

// restMessage is the description of a REST error body, for errors[].message.
func restMessage(status int, body []byte) string {
	var eb struct {
		Description string `json:"description"`
	}
	if json.Unmarshal(body, &eb) == nil && eb.Description != "" {
		return eb.Description
	}
	return "The lookup failed with HTTP status " + strconv.Itoa(status) + "."
}

// walk appends the fields of ss that apply to the object type def (after @skip and
// @include, through fragments) to the current frame, in document order.
func (x *executor) walk(def *ast.Definition, ss ast.SelectionSet) {
	for _, sel := range ss {
		switch s := sel.(type) {
		case *ast.Field:
			if included(s.Directives, x.vars) {
				key := s.Alias
				if key == "" {
					key = s.Name
				}
				x.fields = append(x.fields, keyedField{key: key, f: s})
			}
		case *ast.InlineFragment:
			if (s.TypeCondition == "" || s.TypeCondition == def.Name) && included(s.Directives, x.vars) {
				x.walk(def, s.SelectionSet)
			}
		case *ast.FragmentSpread:
			if !included(s.Directives, x.vars) {
				continue
			}
			f := s.Definition
			if f == nil {
				f = x.doc.Fragments.ForName(s.Name)
			}
			if f != nil && f.TypeCondition == def.Name {
				x.walk(def, f.SelectionSet)
			}
		}
	}
}

func seenKey(frame []keyedField, key string) bool {
	for _, kf := range frame {
		if kf.key == key {
			return true
		}
	}
	return false
}
