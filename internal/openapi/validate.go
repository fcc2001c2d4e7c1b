package openapi

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// resourceURL names the document inside the schema compiler. The .invalid top-level
// domain (RFC 2606) can never resolve, and the compiler's default loader reads no URLs:
// every $ref is local to the document.
const resourceURL = "https://ipatlas.invalid/openapi.json"

// compiled holds a compiled JSON Schema for every response body schema, by JSON pointer.
type compiled struct {
	byPtr map[string]*jsonschema.Schema
}

// errorSchemaPtr is the Error body, which answers for paths and methods the document has
// no operation for (the server's catch-all 404 and 405).
const errorSchemaPtr = "/components/schemas/Error"

var (
	notFoundResponse = &response{pointer: "(no such path)", mediaType: "application/json", schemaPtr: errorSchemaPtr}
	methodResponse   = &response{pointer: "(no such method)", mediaType: "application/json", schemaPtr: errorSchemaPtr,
		headers: []header{{name: "Allow", required: true}}}
)

// compile builds every response schema once. OpenAPI 3.1 schemas are JSON Schema draft
// 2020-12, which the compiler implements (unevaluatedProperties included).
func (d *Doc) compile() (*compiled, error) {
	d.schemasOnce.Do(func() {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(d.json))
		if err != nil {
			d.schemasErr = fmt.Errorf("openapi: reread the document: %w", err)
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource(resourceURL, inst); err != nil {
			d.schemasErr = fmt.Errorf("openapi: %w", err)
			return
		}
		out := &compiled{byPtr: map[string]*jsonschema.Schema{}}
		ptrs := []string{errorSchemaPtr}
		for _, op := range d.ops {
			for _, r := range op.responses {
				if r.schemaPtr != "" {
					ptrs = append(ptrs, r.schemaPtr)
				}
			}
		}
		for _, p := range ptrs {
			if out.byPtr[p] != nil {
				continue
			}
			s, err := c.Compile(resourceURL + "#" + p)
			if err != nil {
				d.schemasErr = fmt.Errorf("openapi: compile the schema at %s: %w", p, err)
				return
			}
			out.byPtr[p] = s
		}
		d.schemas = out
	})
	return d.schemas, d.schemasErr
}

// responseFor finds the documented answer for a request and status: the operation's own
// response for the status (or its 4XX/5XX range, or default); for a path the document does
// not have, the catch-all 404; for a documented path and another method, the catch-all 405.
func (d *Doc) responseFor(method, path string, status int) (*response, error) {
	where := fmt.Sprintf("%s %s answered %d", method, path, status)
	op, pathKnown := d.find(method, path)
	switch {
	case op == nil && !pathKnown:
		if status != http.StatusNotFound {
			return nil, fmt.Errorf("openapi: %s, but the document has no such path (only a 404 may answer there)", where)
		}
		return notFoundResponse, nil
	case op == nil:
		if status != http.StatusMethodNotAllowed {
			return nil, fmt.Errorf("openapi: %s, but the document has no %s operation on this path (only a 405 may answer; documented: %s)", where, method, strings.Join(d.allowed(path), ", "))
		}
		return methodResponse, nil
	}
	code := fmt.Sprint(status)
	for _, k := range []string{code, code[:1] + "XX", "default"} {
		if r := op.responses[k]; r != nil {
			return r, nil
		}
	}
	return nil, fmt.Errorf("openapi: %s, a status the document does not list for %s %s", where, op.Method, op.Path)
}

// ValidateResponse checks an answer's body against the document: the status must be
// documented for the operation, and a JSON body must match its schema (response objects
// are closed, so a field the document lacks is an error too). A request path the document
// does not have may only be answered by the 404 Error body; a documented path with an
// undocumented method only by the 405 Error body.
func (d *Doc) ValidateResponse(method, path string, status int, body []byte) error {
	r, err := d.responseFor(method, path, status)
	if err != nil {
		return err
	}
	where := fmt.Sprintf("%s %s answered %d", method, path, status)
	if r.mediaType == "" {
		if len(body) != 0 {
			return fmt.Errorf("openapi: %s with a %d-byte body; the document (%s) gives no body", where, len(body), r.pointer)
		}
		return nil
	}
	if r.schemaPtr == "" || !isJSON(r.mediaType) {
		return nil // a non-JSON body (metrics, the HTML page) is not schema-checked
	}
	schemas, err := d.compile()
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("openapi: %s with a body that is not JSON (%v): %.200q", where, err, body)
	}
	if err := schemas.byPtr[r.schemaPtr].Validate(inst); err != nil {
		return fmt.Errorf("openapi: %s with a body that does not match the document's schema at %s:\n%v\nbody: %.2000s", where, r.schemaPtr, err, body)
	}
	return nil
}

// ValidateHeader checks an answer's headers against the document: the Content-Type's
// media type must be the documented one, and every required header must be present, with
// its documented value where the document fixes one.
func (d *Doc) ValidateHeader(method, path string, status int, h http.Header) error {
	r, err := d.responseFor(method, path, status)
	if err != nil {
		return err
	}
	where := fmt.Sprintf("%s %s answered %d", method, path, status)
	var errs []error
	if r.mediaType != "" {
		ct := h.Get("Content-Type")
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != r.mediaType {
			errs = append(errs, fmt.Errorf("openapi: %s with Content-Type %q; the document says %s", where, ct, r.mediaType))
		}
	}
	for _, hd := range r.headers {
		v, ok := h[http.CanonicalHeaderKey(hd.name)]
		switch {
		case !ok && hd.required:
			errs = append(errs, fmt.Errorf("openapi: %s without the required header %s", where, hd.name))
		case ok && hd.konst != "" && (len(v) != 1 || v[0] != hd.konst):
			errs = append(errs, fmt.Errorf("openapi: %s with header %s: %q; the document says %q", where, hd.name, v, hd.konst))
		}
	}
	return errors.Join(errs...)
}

func isJSON(mediaType string) bool {
	return mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")
}
