package graphql

import (
	"bytes"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// formatSDL prints the package's own definitions (not the built-in ones) as SDL, in the
// order of the schema files: Query first. gqlparser's formatter would do, but writes every
// description as a block string and no blank lines between types, which reads poorly in
// the file clients download.
func formatSDL(name string, defs ast.DefinitionList) []byte {
	var b bytes.Buffer
	b.WriteString("# ipatlas GraphQL schema of the " + name + " package: POST /graphql/" + name + "\n")
	b.WriteString("# Field names and types mirror the REST answers of the endpoints named in Query.\n")
	for _, d := range defs {
		if d.BuiltIn {
			continue
		}
		b.WriteByte('\n')
		writeDescription(&b, "", d.Description)
		switch d.Kind {
		case ast.Scalar:
			b.WriteString("scalar " + d.Name + "\n")
			continue
		case ast.Object:
			b.WriteString("type " + d.Name + " {\n")
		default: // checkSchema refuses other kinds
			continue
		}
		for _, f := range d.Fields {
			writeDescription(&b, "  ", f.Description)
			b.WriteString("  " + f.Name)
			if len(f.Arguments) > 0 {
				b.WriteByte('(')
				for i, a := range f.Arguments {
					if i > 0 {
						b.WriteString(", ")
					}
					b.WriteString(a.Name + ": " + a.Type.String())
					if a.DefaultValue != nil {
						b.WriteString(" = " + a.DefaultValue.String())
					}
				}
				b.WriteByte(')')
			}
			b.WriteString(": " + f.Type.String() + "\n")
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

func writeDescription(b *bytes.Buffer, indent, d string) {
	if d == "" {
		return
	}
	if !strings.Contains(d, "\n") && !strings.Contains(d, `"`) && !strings.Contains(d, `\`) {
		b.WriteString(indent + `"` + d + "\"\n")
		return
	}
	b.WriteString(indent + `"""` + "\n")
	for line := range strings.SplitSeq(strings.ReplaceAll(d, `"""`, `\"""`), "\n") {
		b.WriteString(indent + line + "\n")
	}
	b.WriteString(indent + `"""` + "\n")
}
