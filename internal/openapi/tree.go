package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// The document is written in YAML for people and served as JSON. Converting through
// yaml.Node rather than map[string]any keeps the members in the order they were written,
// so /openapi.json and /docs list paths, fields and statuses as the author ordered them.

// object is a JSON object that keeps its members in document order. Values are nil, bool,
// json.Number, string, []any or *object.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(key string) any {
	if o == nil {
		return nil
	}
	return o.vals[key]
}

// obj returns member key as an object, nil when absent or of another type.
func (o *object) obj(key string) *object {
	v, _ := o.get(key).(*object)
	return v
}

func (o *object) str(key string) string {
	v, _ := o.get(key).(string)
	return v
}

func (o *object) arr(key string) []any {
	v, _ := o.get(key).([]any)
	return v
}

// members returns the keys in document order; none for a nil object.
func (o *object) members() []string {
	if o == nil {
		return nil
	}
	return o.keys
}

func (o *object) has(key string) bool {
	if o == nil {
		return false
	}
	_, ok := o.vals[key]
	return ok
}

// MarshalJSON writes the members in document order.
func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := marshal(o.vals[k])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes v without HTML escaping: descriptions hold "&" and "<" that should read
// as themselves in the served document.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// indentJSON indents b for people reading /openapi.json; json.Indent keeps "&" and "<"
// as they are.
func indentJSON(b []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// fromYAML converts a YAML document into the ordered tree. Only what JSON can express is
// accepted: string keys, and scalars that are strings, numbers, booleans or null.
func fromYAML(src []byte) (*object, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, fmt.Errorf("want one YAML document")
	}
	v, err := convertNode(doc.Content[0])
	if err != nil {
		return nil, err
	}
	root, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf("the document is not a mapping")
	}
	return root, nil
}

func convertNode(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.AliasNode:
		return convertNode(n.Alias)
	case yaml.MappingNode:
		o := &object{vals: make(map[string]any, len(n.Content)/2)}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Tag != "!!str" {
				return nil, fmt.Errorf("line %d: key %q is not a string (quote it)", k.Line, k.Value)
			}
			if _, dup := o.vals[k.Value]; dup {
				return nil, fmt.Errorf("line %d: duplicate key %q", k.Line, k.Value)
			}
			v, err := convertNode(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			o.keys = append(o.keys, k.Value)
			o.vals[k.Value] = v
		}
		return o, nil
	case yaml.SequenceNode:
		a := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := convertNode(c)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		return a, nil
	case yaml.ScalarNode:
		return convertScalar(n)
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

func convertScalar(n *yaml.Node) (any, error) {
	switch n.Tag {
	case "!!str":
		return n.Value, nil
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		err := n.Decode(&b)
		return b, err
	case "!!int":
		var i int64
		if err := n.Decode(&i); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return json.Number(strconv.FormatInt(i, 10)), nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	}
	return nil, fmt.Errorf("line %d: scalar %q has tag %s, which JSON cannot express", n.Line, n.Value, n.Tag)
}
