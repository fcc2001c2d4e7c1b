package openapi

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
)

// The /docs page is rendered on the server from the same document, with html/template and
// nothing else: no scripts, fonts, stylesheets or images from elsewhere, so it works on an
// air-gapped install and the document stays the only source of the reference.

//go:embed page.html
var pageHTML string

var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// Source is one data source for the page's attribution section (the licences of several
// sources require their attribution to be shown to users of the data).
type Source struct {
	Name, Version, Licence, Attribution string
}

// WriteHTML renders the documentation page, with sources in its attribution section.
func (d *Doc) WriteHTML(w io.Writer, sources []Source) error {
	v, err := d.pageView()
	if err != nil {
		return err
	}
	page := *v
	page.Sources = sources
	return pageTemplate.Execute(w, &page)
}

type pageView struct {
	Title, Version, Summary string
	Intro                   template.HTML
	Schemes                 []schemeView
	Statuses                []statusView
	Groups                  []groupView
	Schemas                 []schemaView
	Sources                 []Source
}

type schemeView struct {
	Name, In, Param string
	Description     template.HTML
}

type statusView struct {
	Status      string
	Description template.HTML
}

type groupView struct {
	Tag, Anchor string
	Description template.HTML
	Endpoints   []endpointView
}

type endpointView struct {
	Anchor, Method, Path, Summary string
	Description                   template.HTML
	Keyless                       bool
	Params                        []fieldView
	Body                          template.HTML
	Responses                     []responseView
}

type responseView struct {
	Status      string
	Success     bool
	Description template.HTML
	Body        template.HTML
	Headers     []string
}

type schemaView struct {
	Name, Anchor string
	Description  template.HTML
	Fields       []fieldView
	Closed       bool
}

type fieldView struct {
	Name        string
	In          string
	Required    bool
	Type        template.HTML
	Constraints string
	Description template.HTML
}

// pageView builds the page's view of the document once; only the sources vary by request.
func (d *Doc) pageView() (*pageView, error) {
	d.pageOnce.Do(func() { d.page, d.pageErr = d.buildPage() })
	return d.page, d.pageErr
}

func (d *Doc) buildPage() (*pageView, error) {
	info := d.root.obj("info")
	v := &pageView{Title: info.str("title"), Version: info.str("version"), Summary: info.str("summary"), Intro: prose(info.str("description"))}
	comps := d.root.obj("components")

	schemes := comps.obj("securitySchemes")
	for _, name := range schemes.members() {
		s := schemes.obj(name)
		v.Schemes = append(v.Schemes, schemeView{Name: name, In: s.str("in"), Param: s.str("name"), Description: prose(s.str("description"))})
	}

	// The error statuses, from the shared responses, in code order.
	seen := map[string]bool{}
	for _, op := range d.ops {
		for status, r := range op.responses {
			if status[0] >= '4' && !seen[status] && strings.HasPrefix(r.pointer, "/components/responses/") {
				seen[status] = true
				v.Statuses = append(v.Statuses, statusView{Status: status, Description: prose(r.node.str("description"))})
			}
		}
	}
	sort.Slice(v.Statuses, func(i, j int) bool { return v.Statuses[i].Status < v.Statuses[j].Status })

	tags := d.root.arr("tags")
	groups := map[string]*groupView{}
	for _, t := range tags {
		t, _ := t.(*object)
		v.Groups = append(v.Groups, groupView{Tag: t.str("name"), Anchor: "tag-" + slug(t.str("name")), Description: prose(t.str("description"))})
	}
	for i := range v.Groups {
		groups[v.Groups[i].Tag] = &v.Groups[i]
	}
	for _, op := range d.ops {
		e, err := d.endpointView(op)
		if err != nil {
			return nil, err
		}
		opTags := op.node.arr("tags")
		if len(opTags) == 0 {
			return nil, fmt.Errorf("openapi: %s %s has no tag", op.Method, op.Path)
		}
		tag, _ := opTags[0].(string) // listed once, under its first tag
		g := groups[tag]
		if g == nil {
			return nil, fmt.Errorf("openapi: %s %s: tag %q is not declared in tags", op.Method, op.Path, tag)
		}
		g.Endpoints = append(g.Endpoints, e)
	}

	schemas := comps.obj("schemas")
	for _, name := range schemas.members() {
		v.Schemas = append(v.Schemas, d.schemaView(name, schemas.obj(name)))
	}
	return v, nil
}

func (d *Doc) endpointView(op *operation) (endpointView, error) {
	n := op.node
	e := endpointView{
		Anchor: "op-" + n.str("operationId"), Method: op.Method, Path: op.Path,
		Summary: n.str("summary"), Description: prose(n.str("description")),
		Keyless: d.Keyless(op.Method, op.Path),
	}
	for i, p := range n.arr("parameters") {
		p, _ := p.(*object)
		_, p, err := d.deref(fmt.Sprintf("%s %s parameter %d", op.Method, op.Path, i), p)
		if err != nil {
			return e, err
		}
		s := p.obj("schema")
		e.Params = append(e.Params, fieldView{
			Name: p.str("name"), In: p.str("in"), Required: p.get("required") == true,
			Type: typeHTML(s), Constraints: constraints(s), Description: prose(p.str("description")),
		})
	}
	if rb := n.obj("requestBody"); rb != nil {
		for _, mt := range rb.obj("content").members() {
			e.Body = template.HTML(template.HTMLEscapeString(mt)+": ") + typeHTML(rb.obj("content").obj(mt).obj("schema"))
		}
	}
	for _, status := range n.obj("responses").members() {
		r := op.responses[status]
		rv := responseView{Status: status, Success: status[0] == '2', Description: prose(r.node.str("description"))}
		if r.mediaType != "" {
			rv.Body = template.HTML(template.HTMLEscapeString(r.mediaType))
			if s, ok := d.lookup("#" + r.schemaPtr); ok {
				rv.Body += ": " + typeHTML(s)
			}
		}
		for _, h := range r.headers {
			rv.Headers = append(rv.Headers, h.name)
		}
		e.Responses = append(e.Responses, rv)
	}
	return e, nil
}

// schemaView flattens a schema's allOf parts into one list of fields, so each schema on
// the page shows every field its objects carry.
func (d *Doc) schemaView(name string, s *object) schemaView {
	v := schemaView{Name: name, Anchor: "schema-" + name, Description: prose(s.str("description"))}
	v.Closed = s.get("additionalProperties") == false || s.get("unevaluatedProperties") == false
	var add func(s *object)
	add = func(s *object) {
		for _, part := range s.arr("allOf") {
			part, _ := part.(*object)
			if ref, ok := d.lookup(part.str("$ref")); ok {
				add(ref)
			} else {
				add(part)
			}
		}
		required := map[string]bool{}
		for _, r := range s.arr("required") {
			r, _ := r.(string)
			required[r] = true
		}
		props := s.obj("properties")
		for _, p := range props.members() {
			ps := props.obj(p)
			v.Fields = append(v.Fields, fieldView{Name: p, Required: required[p], Type: typeHTML(ps), Constraints: constraints(ps), Description: prose(fieldDescription(d, ps))})
		}
		// required may name fields declared in an allOf part
		for i := range v.Fields {
			if required[v.Fields[i].Name] {
				v.Fields[i].Required = true
			}
		}
	}
	add(s)
	return v
}

// fieldDescription is a field's own description, else that of the schema it refers to.
func fieldDescription(d *Doc, s *object) string {
	if desc := s.str("description"); desc != "" {
		return desc
	}
	if ref, ok := d.lookup(s.str("$ref")); ok {
		return ref.str("description")
	}
	return ""
}

// typeHTML describes a schema's type in words, linking named schemas.
func typeHTML(s *object) template.HTML {
	if s == nil {
		return "any"
	}
	if ref := s.str("$ref"); strings.HasPrefix(ref, "#/components/schemas/") {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		return template.HTML(`<a href="#schema-` + template.HTMLEscapeString(name) + `">` + template.HTMLEscapeString(name) + `</a>`)
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts := s.arr(k); len(alts) > 0 {
			var parts []string
			for _, a := range alts {
				a, _ := a.(*object)
				parts = append(parts, string(typeHTML(a)))
			}
			return template.HTML(strings.Join(parts, " or "))
		}
	}
	var types []string
	switch t := s.get("type").(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			x, _ := x.(string)
			types = append(types, x)
		}
	}
	if len(types) == 0 {
		return "any"
	}
	var out []string
	for _, t := range types {
		switch t {
		case "array":
			out = append(out, "array of "+string(typeHTML(s.obj("items"))))
		case "object":
			if ap := s.obj("additionalProperties"); ap != nil {
				out = append(out, "object of "+string(typeHTML(ap)))
			} else {
				out = append(out, "object")
			}
		default:
			out = append(out, template.HTMLEscapeString(t))
		}
	}
	if f := s.str("format"); f != "" {
		out[0] += " (" + template.HTMLEscapeString(f) + ")"
	}
	return template.HTML(strings.Join(out, " or "))
}

// constraints lists a schema's limits and values in words.
func constraints(s *object) string {
	var out []string
	num := func(k string) string { return fmt.Sprint(s.get(k)) }
	switch {
	case s.has("minimum") && s.has("maximum"):
		out = append(out, num("minimum")+" to "+num("maximum"))
	case s.has("minimum"):
		out = append(out, "at least "+num("minimum"))
	case s.has("maximum"):
		out = append(out, "at most "+num("maximum"))
	}
	if s.has("maxLength") {
		out = append(out, "at most "+num("maxLength")+" characters")
	}
	if s.has("maxItems") {
		out = append(out, "at most "+num("maxItems")+" items")
	}
	if enum := s.arr("enum"); len(enum) > 0 {
		var vals []string
		for _, e := range enum {
			vals = append(vals, fmt.Sprint(e))
		}
		out = append(out, "one of: "+strings.Join(vals, ", "))
	}
	if s.has("const") {
		out = append(out, "always "+num("const"))
	}
	if s.has("pattern") {
		out = append(out, "matches "+s.str("pattern"))
	}
	if s.has("default") {
		out = append(out, "default "+num("default"))
	}
	return strings.Join(out, "; ")
}

// slug makes an HTML id from a name: "Reverse geocoding" -> "reverse-geocoding".
func slug(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), "-"))
}

// prose renders a plain-text description: blank lines separate paragraphs and `code`
// becomes <code>. The text is escaped before any markup is added.
func prose(s string) template.HTML {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	var b strings.Builder
	for _, para := range strings.Split(s, "\n\n") {
		esc := template.HTMLEscapeString(strings.TrimSpace(para))
		parts := strings.Split(esc, "`")
		b.WriteString("<p>")
		for i, p := range parts {
			if i%2 == 1 && i < len(parts)-1 {
				b.WriteString("<code>" + p + "</code>")
			} else {
				if i%2 == 1 { // an unmatched backtick stays as written
					b.WriteString("`")
				}
				b.WriteString(p)
			}
		}
		b.WriteString("</p>")
	}
	return template.HTML(b.String())
}
