package graphql

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/ipatlas/ipatlas/internal/web"
	"github.com/vektah/gqlparser/v2/ast"
)

// Service answers GraphQL requests for every package through one Answerer.
type Service struct {
	pkgs  map[string]*Package
	ans   Answerer
	cache *docCache
}

// New returns a Service over the compiled-in schemas. It fails only if they do not load,
// which is a build defect.
func New(a Answerer) (*Service, error) {
	if a == nil {
		return nil, errors.New("graphql: nil Answerer")
	}
	pkgs, err := Packages()
	if err != nil {
		return nil, err
	}
	return &Service{pkgs: pkgs, ans: a, cache: newDocCache(CacheEntries)}, nil
}

// Package returns the package of that name.
func (s *Service) Package(name string) (*Package, bool) {
	p, ok := s.pkgs[name]
	return p, ok
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// Serve answers one GraphQL request whose body has been read and whose key (for a keyed
// package) has been checked and charged. It writes the response, always HTTP 200 with the
// GraphQL errors in errors[], and returns nil; or, when the body is not a GraphQL request,
// it writes nothing and returns a *RequestError for the caller to answer with 400.
func (s *Service) Serve(w http.ResponseWriter, r *http.Request, p *Package, body []byte) error {
	req, err := ParseRequest(body)
	if err != nil {
		return err
	}
	bp := bufPool.Get().(*[]byte)
	out := s.execute((*bp)[:0], r, p, req)
	web.WriteJSONBytes(w, http.StatusOK, out)
	if cap(out) <= maxPooled { // keep buffers of ordinary answers only
		*bp = out
		bufPool.Put(bp)
	}
	return nil
}

// execute appends the response body of req to dst.
func (s *Service) execute(dst []byte, r *http.Request, p *Package, req Request) []byte {
	var errs errList
	e := s.document(p, req.Query)
	if e.doc == nil {
		errs.addGQL(e.errs, e.code)
		return response(dst, &errs, nil)
	}
	op, msg := selectOperation(e.doc, req.OperationName)
	if op == nil {
		errs.add(msg, nil, nil, codeOperation, 0)
		return response(dst, &errs, nil)
	}
	vars, err := coerceVariables(p.schema, op, req.Variables)
	if err != nil {
		errs.add(err.Error(), nil, nil, codeBadInput, 0)
		return response(dst, &errs, nil)
	}
	if le := checkLimits(op, e.doc, vars); le != nil {
		errs.add(le.msg, le.pos, nil, le.code, 0)
		return response(dst, &errs, nil)
	}
	x := getExecutor()
	x.pkg, x.doc, x.vars, x.r, x.ans, x.errs = p, e.doc, vars, r, s.ans, &errs
	data := x.run(op)
	// The data is built in its own buffer because errors, which come first, are only
	// known at the end.
	dst = response(dst, &errs, data)
	x.put()
	return dst
}

// selectOperation picks the operation to run: the one named, or the only one.
func selectOperation(doc *ast.QueryDocument, name string) (*ast.OperationDefinition, string) {
	if name != "" {
		if op := doc.Operations.ForName(name); op != nil {
			return op, ""
		}
		return nil, fmt.Sprintf("The document has no operation named %q; it has %s.", name, operationNames(doc))
	}
	switch len(doc.Operations) {
	case 0: // validation has refused fragments that no operation uses
		return nil, "The document has no operation to run: it is empty (or only comments)."
	case 1:
		return doc.Operations[0], ""
	}
	return nil, fmt.Sprintf("The document holds several operations (%s): say which one to run in operationName.", operationNames(doc))
}

func operationNames(doc *ast.QueryDocument) string {
	names := make([]string, 0, len(doc.Operations))
	for _, op := range doc.Operations {
		if op.Name == "" {
			names = append(names, "an anonymous one")
		} else {
			names = append(names, op.Name)
		}
	}
	return strings.Join(names, ", ")
}
