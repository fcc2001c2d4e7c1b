package openapi

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The document's own rules, checked so that a careless edit fails here with a precise
// message rather than as a confusing validation error elsewhere.

func mustLoad(t *testing.T) *Doc {
	t.Helper()
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDocumentLoadsAndCompiles(t *testing.T) {
	d := mustLoad(t)
	var v struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Title, Version string
		} `json:"info"`
	}
	if err := json.Unmarshal(d.JSON(), &v); err != nil {
		t.Fatalf("the served JSON does not parse: %v", err)
	}
	if v.OpenAPI != "3.1.0" || v.Info.Title == "" || v.Info.Version == "" {
		t.Errorf("openapi %q, info %+v", v.OpenAPI, v.Info)
	}
	if _, err := d.compile(); err != nil {
		t.Fatal(err)
	}
	// Members keep the order they were written in.
	if i, j := strings.Index(string(d.JSON()), `"/data/ip-geolocation-with-confidence"`), strings.Index(string(d.JSON()), `"/healthz"`); i < 0 || j < i {
		t.Error("paths are not in document order")
	}
}

// walk calls fn for every object in the tree with its JSON pointer.
func walk(v any, ptr string, fn func(ptr string, o *object)) {
	switch v := v.(type) {
	case *object:
		fn(ptr, v)
		for _, k := range v.keys {
			walk(v.vals[k], ptr+"/"+escapePointer(k), fn)
		}
	case []any:
		for i, x := range v {
			walk(x, fmt.Sprintf("%s/%d", ptr, i), fn)
		}
	}
}

func TestEveryRefResolves(t *testing.T) {
	d := mustLoad(t)
	walk(d.root, "", func(ptr string, o *object) {
		if ref, ok := o.get("$ref").(string); ok {
			if _, found := d.lookup(ref); !found {
				t.Errorf("%s: $ref %s resolves to nothing", ptr, ref)
			}
		}
	})
}

func TestEveryComponentSchemaIsUsed(t *testing.T) {
	d := mustLoad(t)
	used := map[string]bool{}
	walk(d.root, "", func(_ string, o *object) {
		if ref := o.str("$ref"); strings.HasPrefix(ref, "#/components/schemas/") {
			used[strings.TrimPrefix(ref, "#/components/schemas/")] = true
		}
	})
	for _, name := range d.root.obj("components").obj("schemas").keys {
		if !used[name] {
			t.Errorf("schema %s is not used by any operation", name)
		}
	}
}

// openSchemas are the schemas left open on purpose: the shared field sets that closed
// schemas extend with allOf (a closed base would refuse the extension's fields), and the
// GraphQL request body, whose other members the server ignores.
var openSchemas = map[string]bool{"NetworkFacts": true, "CarrierFields": true, "GraphQLRequest": true, "GeolocationFields": true, "ReverseGeocodeFields": true, "UserAgentFields": true}

// TestResponseObjectsAreClosed: every object schema refuses fields it does not list, so a
// field a handler adds without documenting it fails validation.
func TestResponseObjectsAreClosed(t *testing.T) {
	d := mustLoad(t)
	schemas := d.root.obj("components").obj("schemas")
	for _, name := range schemas.keys {
		if openSchemas[name] {
			continue
		}
		walk(schemas.obj(name), "/components/schemas/"+name, func(ptr string, o *object) {
			if !o.has("properties") {
				return
			}
			if o.get("additionalProperties") != false && o.get("unevaluatedProperties") != false {
				t.Errorf("%s lists properties but is not closed (additionalProperties: false)", ptr)
			}
		})
	}
	// The open bases are only ever extended, never used directly.
	walk(d.root, "", func(ptr string, o *object) {
		ref := strings.TrimPrefix(o.str("$ref"), "#/components/schemas/")
		if openSchemas[ref] && ref != "GraphQLRequest" && !regexp.MustCompile(`/allOf/\d+$`).MatchString(ptr) {
			t.Errorf("%s uses the open schema %s directly; extend it with allOf and close the result", ptr, ref)
		}
	})
}

func TestOperationsFollowConventions(t *testing.T) {
	d := mustLoad(t)
	tags := map[string]bool{}
	for _, tg := range d.root.arr("tags") {
		tags[tg.(*object).str("name")] = true
	}
	ids := map[string]string{}
	for _, op := range d.ops {
		where := op.Method + " " + op.Path
		id := op.node.str("operationId")
		if id == "" || ids[id] != "" {
			t.Errorf("%s: operationId %q is missing or also used by %s", where, id, ids[id])
		}
		ids[id] = where
		if op.node.str("summary") == "" {
			t.Errorf("%s has no summary", where)
		}
		for _, tg := range op.node.arr("tags") {
			if !tags[tg.(string)] {
				t.Errorf("%s: tag %v is not declared", where, tg)
			}
		}
		var want []string
		if op.Path != "/metrics" { // served by the Prometheus handler, outside the error plumbing
			want = append(want, "500")
		}
		keyless := d.Keyless(op.Method, op.Path)
		if !keyless {
			want = append(want, "401", "402", "403")
		}
		if keyless && op.Method == "GET" && strings.HasPrefix(op.Path, "/data/") && op.Path != "/data/sources" {
			want = append(want, "429")
		}
		for _, status := range want {
			if op.responses[status] == nil {
				t.Errorf("%s does not list %s", where, status)
			}
		}
		for status, r := range op.responses {
			if status[0] == '2' {
				continue
			}
			if r.mediaType != "application/json" || !errorBody(d, r) {
				t.Errorf("%s %s: a non-2xx answer must carry the Error body", where, status)
			}
		}
		// Every {param} in the path is a declared path parameter.
		for _, m := range regexp.MustCompile(`\{([^}]+)\}`).FindAllStringSubmatch(op.Path, -1) {
			declared := false
			for i, p := range op.node.arr("parameters") {
				_, p, err := d.deref(fmt.Sprintf("%s parameter %d", where, i), p.(*object))
				if err != nil {
					t.Fatal(err)
				}
				if p.str("in") == "path" && p.str("name") == m[1] && p.get("required") == true {
					declared = true
				}
			}
			if !declared {
				t.Errorf("%s: path parameter %s is not declared as required", where, m[1])
			}
		}
	}
}

// errorBody reports whether a response's schema is the Error schema, or offers it.
func errorBody(d *Doc, r *response) bool {
	s, _ := d.lookup("#" + r.schemaPtr)
	const ref = "#/components/schemas/Error"
	if s.str("$ref") == ref {
		return true
	}
	return slices.ContainsFunc(s.arr("oneOf"), func(v any) bool { return v.(*object).str("$ref") == ref })
}

func TestMatchPath(t *testing.T) {
	tests := []struct {
		template, path string
		want           bool
	}{
		{"/data/countries", "/data/countries", true},
		{"/data/countries", "/data/countries/", false},
		{"/graphql/{package}", "/graphql/ip-geolocation", true},
		{"/graphql/{package}", "/graphql/", false},
		{"/graphql/{package}", "/graphql/a/b", false},
	}
	for _, tt := range tests {
		if got := matchPath(tt.template, tt.path); got != tt.want {
			t.Errorf("matchPath(%q, %q) = %v", tt.template, tt.path, got)
		}
	}
}

func TestFromYAMLRejectsWhatJSONCannotSay(t *testing.T) {
	for _, src := range []string{
		"a: 1\na: 2\n",        // duplicate key
		"1: x\n",              // non-string key
		"a: !!binary aGk=\n",  // a tag JSON has no type for
		"- just\n- a list\n",  // not a mapping
		"a: [unterminated\n",  // not YAML
		"a: 2001-01-01\nb: x", // a timestamp
	} {
		if _, err := fromYAML([]byte(src)); err == nil {
			t.Errorf("fromYAML(%q) succeeded", src)
		}
	}
	o, err := fromYAML([]byte("z: 1\na: [true, null, 1.5, \"s\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := o.MarshalJSON()
	if string(b) != `{"z":1,"a":[true,null,1.5,"s"]}` {
		t.Errorf("got %s", b)
	}
}

// TestNoNullMembersAndStringDescriptions catches YAML that parses into something other
// than what was meant. The usual cause is an unquoted flow mapping such as
// {type: string, description: A range, host bits cleared.}: the comma ends the scalar, so
// the description is cut short and "host bits cleared." becomes a key with a null value.
// The document has no member that is null on purpose, and every description is text.
func TestNoNullMembersAndStringDescriptions(t *testing.T) {
	for _, p := range misparsed(mustLoad(t).root) {
		t.Error(p)
	}
	// The check itself finds both kinds of defect.
	bad, err := fromYAML([]byte("a: {type: string, description: The range, host bits cleared.}\n" +
		"b: {description: 42}\n" +
		"c: {properties: {description: {type: string, description: \"ok, quoted\"}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/a/host bits cleared. is null", "/b/description is json.Number, not a string"}
	if got := misparsed(bad); !slices.Equal(got, want) {
		t.Errorf("misparsed: got %q, want %q", got, want)
	}
}

// misparsed lists, by JSON pointer, the members of root that are null and the description
// fields that are not strings. A property named "description" is a schema, not text.
func misparsed(root *object) []string {
	var out []string
	walk(root, "", func(ptr string, o *object) {
		for _, k := range o.keys {
			v, at := o.vals[k], ptr+"/"+escapePointer(k)
			if v == nil {
				out = append(out, at+" is null")
				continue
			}
			if _, ok := v.(string); k == "description" && !ok && !strings.HasSuffix(ptr, "/properties") {
				out = append(out, fmt.Sprintf("%s is %T, not a string", at, v))
			}
		}
	})
	return out
}
