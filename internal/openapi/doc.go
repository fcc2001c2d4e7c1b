// Package openapi owns ipatlas's OpenAPI 3.1 document: the embedded description of every
// HTTP endpoint (parameters, response bodies, error statuses, authentication), its JSON
// form served on /openapi.json, the /docs page rendered from it, and the validator that
// checks real answers against it so that the document and the handlers cannot drift.
package openapi

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"
)

//go:embed openapi.yaml
var source []byte

// Doc is the parsed document. It is immutable after Load and safe for concurrent use.
type Doc struct {
	root *object
	json []byte
	ops  []*operation

	schemasOnce sync.Once
	schemas     *compiled
	schemasErr  error

	pageOnce sync.Once
	page     *pageView
	pageErr  error
}

// Operation names one documented endpoint.
type Operation struct {
	Method string // upper case: GET, POST, OPTIONS
	Path   string // the path template, e.g. /graphql/{package}
}

// operation is an Operation with what validation needs.
type operation struct {
	Operation
	node      *object
	responses map[string]*response // by status code as written: "200", "404"
}

// response is one documented answer, with OpenAPI $refs resolved.
type response struct {
	pointer   string // JSON pointer of the response object (after $ref)
	node      *object
	mediaType string // "" when the answer has no body
	schemaPtr string // JSON pointer of the body's schema; "" when none
	headers   []header
}

type header struct {
	name     string
	required bool
	konst    string // the value the header must have; "" when any
}

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// Load parses the embedded document.
func Load() (*Doc, error) {
	return parse(source)
}

var defaultDoc = sync.OnceValues(Load)

// Default returns the embedded document, parsed once per process.
func Default() (*Doc, error) { return defaultDoc() }

func parse(src []byte) (*Doc, error) {
	root, err := fromYAML(src)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	js, err := marshalIndent(root)
	if err != nil {
		return nil, fmt.Errorf("openapi: encode JSON: %w", err)
	}
	d := &Doc{root: root, json: js}
	paths := root.obj("paths")
	if paths == nil {
		return nil, fmt.Errorf("openapi: the document has no paths")
	}
	for _, p := range paths.keys {
		item := paths.obj(p)
		if item == nil {
			return nil, fmt.Errorf("openapi: path %s is not an object", p)
		}
		for _, m := range item.keys {
			if !slices.Contains(methods, m) {
				return nil, fmt.Errorf("openapi: path %s: %q is not an HTTP method (path-level fields are not used in this document)", p, m)
			}
			op, err := d.parseOperation(strings.ToUpper(m), p, item.obj(m))
			if err != nil {
				return nil, err
			}
			d.ops = append(d.ops, op)
		}
	}
	return d, nil
}

func (d *Doc) parseOperation(method, path string, node *object) (*operation, error) {
	where := method + " " + path
	if node == nil {
		return nil, fmt.Errorf("openapi: %s is not an object", where)
	}
	op := &operation{Operation: Operation{method, path}, node: node, responses: map[string]*response{}}
	rs := node.obj("responses")
	if rs == nil || len(rs.keys) == 0 {
		return nil, fmt.Errorf("openapi: %s has no responses", where)
	}
	for _, status := range rs.keys {
		ptr := "/paths/" + escapePointer(path) + "/" + strings.ToLower(method) + "/responses/" + status
		r, err := d.parseResponse(ptr, rs.obj(status))
		if err != nil {
			return nil, fmt.Errorf("openapi: %s %s: %w", where, status, err)
		}
		op.responses[status] = r
	}
	return op, nil
}

func (d *Doc) parseResponse(ptr string, node *object) (*response, error) {
	ptr, node, err := d.deref(ptr, node)
	if err != nil {
		return nil, err
	}
	r := &response{pointer: ptr, node: node}
	if content := node.obj("content"); content != nil {
		if len(content.keys) != 1 {
			return nil, fmt.Errorf("want one media type, have %v", content.keys)
		}
		r.mediaType = content.keys[0]
		if content.obj(r.mediaType).has("schema") {
			r.schemaPtr = ptr + "/content/" + escapePointer(r.mediaType) + "/schema"
		}
	}
	if hs := node.obj("headers"); hs != nil {
		for _, name := range hs.keys {
			hptr, h, err := d.deref(ptr+"/headers/"+escapePointer(name), hs.obj(name))
			if err != nil {
				return nil, fmt.Errorf("header %s (%s): %w", name, hptr, err)
			}
			konst, _ := h.obj("schema").get("const").(string)
			r.headers = append(r.headers, header{name: name, required: h.get("required") == true, konst: konst})
		}
	}
	return r, nil
}

// deref follows an OpenAPI $ref (#/components/...) from the object at ptr.
func (d *Doc) deref(ptr string, node *object) (string, *object, error) {
	if node == nil {
		return "", nil, fmt.Errorf("%s is not an object", ptr)
	}
	ref := node.str("$ref")
	if ref == "" {
		return ptr, node, nil
	}
	target, ok := d.lookup(ref)
	if !ok {
		return "", nil, fmt.Errorf("%s: $ref %s resolves to nothing", ptr, ref)
	}
	return strings.TrimPrefix(ref, "#"), target, nil
}

// lookup resolves a local reference "#/a/b" to an object.
func (d *Doc) lookup(ref string) (*object, bool) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	cur := d.root
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		cur = cur.obj(tok)
		if cur == nil {
			return nil, false
		}
	}
	return cur, true
}

// escapePointer escapes one JSON pointer token (RFC 6901).
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func marshalIndent(root *object) ([]byte, error) {
	b, err := marshal(root)
	if err != nil {
		return nil, err
	}
	return indentJSON(b)
}

// JSON returns the document as OpenAPI 3.1 JSON. The caller must not modify it.
func (d *Doc) JSON() []byte { return d.json }

// Operations lists every documented endpoint in document order.
func (d *Doc) Operations() []Operation {
	out := make([]Operation, len(d.ops))
	for i, op := range d.ops {
		out[i] = op.Operation
	}
	return out
}

// find returns the operation for method and a request path, and whether any operation
// has that path (for another method, when op is nil).
func (d *Doc) find(method, path string) (op *operation, pathKnown bool) {
	method = strings.ToUpper(method)
	for _, o := range d.ops {
		if !matchPath(o.Path, path) {
			continue
		}
		pathKnown = true
		if o.Method == method {
			return o, true
		}
	}
	return nil, pathKnown
}

// allowed lists the documented methods of a request path, in document order.
func (d *Doc) allowed(path string) []string {
	var out []string
	for _, o := range d.ops {
		if matchPath(o.Path, path) {
			out = append(out, o.Method)
		}
	}
	return out
}

// matchPath reports whether a request path matches a template; a {name} segment matches
// any one non-empty segment.
func matchPath(template, path string) bool {
	if template == path {
		return true
	}
	ts, ps := strings.Split(template, "/"), strings.Split(path, "/")
	if len(ts) != len(ps) {
		return false
	}
	for i, t := range ts {
		if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
			if ps[i] == "" {
				return false
			}
			continue
		}
		if t != ps[i] {
			return false
		}
	}
	return true
}

// Keyless reports whether an operation needs no API key (its security is empty).
func (d *Doc) Keyless(method, path string) bool {
	op, _ := d.find(method, path)
	if op == nil {
		return false
	}
	sec, ok := op.node.get("security").([]any)
	return ok && len(sec) == 0
}
