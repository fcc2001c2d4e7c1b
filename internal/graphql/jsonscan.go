package graphql

import "bytes"

// A minimal scanner over JSON the REST layer wrote. The projector only needs to find the
// members of an object and the elements of an array as raw byte spans, and to copy scalar
// values as they are, so it never decodes what the query did not select. The input is
// trusted to be valid JSON, but the scanner must never panic or loop on anything: a
// malformed span ends the scan with ok false.

// member is one object member: its key as written (without the quotes) and its raw value.
type member struct {
	key, val []byte
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipString returns the index after the string that starts with the quote at b[i], or -1.
func skipString(b []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		// The quote ends the string unless an odd number of backslashes escapes it.
		n := 0
		for k := i - 1; k >= 0 && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i + 1
		}
		i++
	}
}

// skipValue returns the index after the value that starts at b[i] (no leading space), or
// -1. Arrays and objects are skipped by counting brackets outside strings, without checking
// that they pair up: the input is the REST layer's own output.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				j := skipString(b, i)
				if j < 0 {
					return -1
				}
				i = j - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	// A number, true, false or null: up to the next delimiter.
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && !isSpace(b[j]) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// scanObject appends the members of the object b to dst.
func scanObject(b []byte, dst []member) ([]member, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return dst, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return dst, true
	}
	for i < len(b) {
		if b[i] != '"' {
			return dst, false
		}
		end := skipString(b, i)
		if end < 0 {
			return dst, false
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return dst, false
		}
		i = skipSpace(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 {
			return dst, false
		}
		dst = append(dst, member{key: key, val: b[i:vend]})
		i = skipSpace(b, vend)
		if i >= len(b) {
			return dst, false
		}
		switch b[i] {
		case '}':
			return dst, true
		case ',':
			i = skipSpace(b, i+1)
		default:
			return dst, false
		}
	}
	return dst, false
}

// lookupMember returns the value of the member named name, or nil.
func lookupMember(ms []member, name string) []byte {
	for _, m := range ms {
		if string(m.key) == name {
			return m.val
		}
	}
	return nil
}

// arrayIter walks the elements of a JSON array.
type arrayIter struct {
	b    []byte
	i    int
	n    int // elements seen
	val  []byte
	done bool
	bad  bool // malformed input; done is set too
}

func newArrayIter(b []byte) arrayIter {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return arrayIter{done: true, bad: true}
	}
	return arrayIter{b: b, i: i + 1}
}

// next moves to the next element; it reports false at the end or on malformed input (bad).
func (it *arrayIter) next() bool {
	if it.done {
		return false
	}
	i := skipSpace(it.b, it.i)
	if i < len(it.b) && it.b[i] == ']' {
		it.done = true
		return false
	}
	if it.n > 0 {
		if i >= len(it.b) || it.b[i] != ',' {
			it.done, it.bad = true, true
			return false
		}
		i = skipSpace(it.b, i+1)
	}
	end := skipValue(it.b, i)
	if end < 0 {
		it.done, it.bad = true, true
		return false
	}
	it.val = it.b[i:end]
	it.i = end
	it.n++
	return true
}

// findMember returns the value of the member named name of the object b, or nil.
func findMember(b []byte, name string) []byte {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil
	}
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] == '"' {
		end := skipString(b, i)
		if end < 0 {
			return nil
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil
		}
		i = skipSpace(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 {
			return nil
		}
		if string(key) == name {
			return b[i:vend]
		}
		i = skipSpace(b, vend)
		if i >= len(b) || b[i] != ',' {
			return nil
		}
		i = skipSpace(b, i+1)
	}
	return nil
}

// descend follows the member names path from the object b; nil when a member is missing.
func descend(b []byte, path []string) []byte {
	for _, name := range path {
		if b = findMember(b, name); b == nil {
			return nil
		}
	}
	return b
}

// isNull reports whether the raw value is JSON null.
func isNull(b []byte) bool {
	return len(b) == 4 && b[0] == 'n' && b[1] == 'u' && b[2] == 'l' && b[3] == 'l'
}
