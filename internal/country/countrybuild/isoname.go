package countrybuild

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The ISO 3166-1 English short names ("Bahamas (the)", "Korea (the Republic of)") are not
// published in any listed source under their codes. The one verbatim copy is the country column
// of the ISO 4217 list one that currency-codes ships, in ISO's upper case and without codes
// ("BAHAMAS (THE)"). isoShortNames joins those names to alpha-2 codes by comparing word sets
// with every other name the sources give a country, then restores the letter case.

// isoShortNames returns the ISO short name of every country whose ISO 4217 country name
// matches exactly one country's candidate names, and the ISO 4217 names that matched none or
// several. candidates maps alpha-2 to the names the other sources use for it.
func isoShortNames(isoNames []string, candidates map[string][]string) (map[string]string, []string) {
	full := map[string]map[string]bool{} // word-set key → alpha-2 codes with a name of that key
	var forms []string
	for code, names := range candidates {
		for _, n := range names {
			k := wordKey(n, false)
			if full[k] == nil {
				full[k] = map[string]bool{}
			}
			full[k][code] = true
			forms = append(forms, n)
		}
	}
	slices.Sort(forms) // deterministic choice among observed spellings
	caseOf := mixedCaseWords(forms)

	out := map[string]string{}
	owner := map[string]string{} // alpha-2 → ISO name that claimed it
	var unmatched []string
	for _, iso := range isoNames {
		codes := full[wordKey(iso, false)]
		if len(codes) == 0 { // "FALKLAND ISLANDS (THE) [MALVINAS]" is "Falkland Islands" elsewhere
			codes = full[wordKey(iso, true)]
		}
		if len(codes) != 1 {
			unmatched = append(unmatched, iso)
			continue
		}
		var code string
		for c := range codes {
			code = c
		}
		if prev, ok := owner[code]; ok && prev != iso {
			unmatched = append(unmatched, iso, prev)
			delete(out, code)
			continue
		}
		owner[code] = iso
		out[code] = restoreCase(iso, caseOf)
	}
	slices.Sort(unmatched)
	return out, slices.Compact(unmatched)
}

// wordKey reduces a name to the sorted set of its upper-case words, leaving out "the", "of"
// and "and" and, if strip is set, anything in parentheses or brackets. "Korea (the Republic
// of)" and "Republic of Korea" both give "KOREA REPUBLIC".
func wordKey(s string, strip bool) string {
	if strip {
		s = stripBracketed(s)
	}
	words := strings.FieldsFunc(upperNorm(s), func(r rune) bool { return !isWordRune(r) && r != '-' })
	words = slices.DeleteFunc(words, func(w string) bool { return w == "THE" || w == "OF" || w == "AND" })
	slices.Sort(words)
	return strings.Join(slices.Compact(words), " ")
}

// stripBracketed removes parenthesised and bracketed parts: "Congo (the)" → "Congo ".
func stripBracketed(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(' || r == '[':
			depth++
		case (r == ')' || r == ']') && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// upperNorm upper-cases s for comparison, with the typographic apostrophe as "'" and the
// dotted capital I of "TÜRKİYE" as plain "I".
func upperNorm(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '’', '‘':
			return '\''
		case 'İ':
			return 'I'
		}
		return unicode.ToUpper(r)
	}, s)
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '\'' || r == '’'
}

// mixedCaseWords collects, from names in their usual spelling, the words whose case is not
// plain ("McDonald", "d’Ivoire"), keyed by their normalised upper case; the first spelling
// seen wins. Words at the start of a name are skipped, since their capital says nothing.
func mixedCaseWords(names []string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		for i, w := range words(n) {
			if i == 0 || !isMixedCase(w) {
				continue
			}
			if _, ok := out[upperNorm(w)]; !ok {
				out[upperNorm(w)] = w
			}
		}
	}
	return out
}

// words splits s into its runs of word runes.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) })
}

// isMixedCase reports whether w is neither all upper case, all lower case nor capitalised.
func isMixedCase(w string) bool {
	first, size := utf8.DecodeRuneInString(w)
	rest := w[size:]
	lowerRest := rest == strings.ToLower(rest)
	switch {
	case w == strings.ToUpper(w), w == strings.ToLower(w):
		return false
	case unicode.IsUpper(first) && lowerRest:
		return false
	}
	return true
}

// lowerWord reports whether up is one of the words ISO writes in lower case inside a name: "Congo (the)",
// "Tristan da Cunha", "Sint Maarten (Dutch part)".
func lowerWord(up string) bool {
	switch up {
	case "THE", "OF", "AND", "DA", "PART":
		return true
	}
	return false
}

// restoreCase turns an ISO 4217 upper-case country name back into ISO 3166's spelling:
// particles in lower case, words with a known unusual case as elsewhere spelled (keeping ISO's
// apostrophe), every other word capitalised. "CÔTE D'IVOIRE" → "Côte d'Ivoire".
func restoreCase(iso string, caseOf map[string]string) string {
	var b strings.Builder
	i, n := 0, 0
	for i < len(iso) {
		r, size := utf8.DecodeRuneInString(iso[i:])
		if !isWordRune(r) {
			b.WriteRune(r)
			i += size
			continue
		}
		j := i
		for j < len(iso) {
			r, size := utf8.DecodeRuneInString(iso[j:])
			if !isWordRune(r) {
				break
			}
			j += size
		}
		w := iso[i:j]
		up := upperNorm(w)
		switch form, ok := caseOf[up]; {
		case n > 0 && lowerWord(up):
			b.WriteString(strings.ToLower(up))
		case n > 0 && ok:
			b.WriteString(sameApostrophe(form, w))
		default:
			b.WriteString(sameApostrophe(capitalise(up), w))
		}
		n++
		i = j
	}
	return b.String()
}

// sameApostrophe spells the apostrophes of form as like does.
func sameApostrophe(form, like string) string {
	a := '\''
	if strings.ContainsRune(like, '’') {
		a = '’'
	}
	return strings.Map(func(r rune) rune {
		if r == '\'' || r == '’' {
			return a
		}
		return r
	}, form)
}

// capitalise returns the upper-case word up with all but its first letter in lower case.
func capitalise(up string) string {
	_, size := utf8.DecodeRuneInString(up)
	return up[:size] + strings.ToLower(up[size:])
}
