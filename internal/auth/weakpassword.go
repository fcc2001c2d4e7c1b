package auth

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// minDistinctRunes is the fewest different characters a new password may have: ten
// characters of one or two (aaaaaaaaaa, abababab12) are guessed first.
const minDistinctRunes = 5

// WeakPassword reports why password, of an acceptable length (PasswordLenOK), is too easy
// to guess for the account of email, and "" when it is not. It checks what needs no list
// of leaked passwords (NIST SP 800-63B asks for one, and no loaded source has one): the
// account's own email or its name part within the password, or the password within the
// email; spaces alone; fewer than minDistinctRunes different characters; and consecutive
// letters or digits, up or down (1234567890, abcdefghij, 9876543210).
func WeakPassword(password, email string) string {
	folded := strings.ToLower(password)
	name, _, _ := strings.Cut(strings.ToLower(email), "@")
	switch {
	case strings.TrimFunc(password, unicode.IsSpace) == "":
		return "A password of spaces alone is too easy to guess."
	case email != "" && (strings.Contains(folded, strings.ToLower(email)) || strings.Contains(strings.ToLower(email), folded) ||
		utf8.RuneCountInString(name) >= 4 && strings.Contains(folded, name)):
		return "A password must not contain your email address or its name."
	case distinctRunes(folded) < minDistinctRunes:
		return "A password of so few different characters is too easy to guess."
	case isRun(folded):
		return "A password of consecutive letters or digits is too easy to guess."
	}
	return ""
}

func distinctRunes(s string) int {
	seen := map[rune]bool{}
	for _, r := range s {
		seen[r] = true
	}
	return len(seen)
}

// isRun reports whether each character of s follows the one before it by the same step, one
// up or one down, digits wrapping around (…8, 9, 0 as on a keyboard's top row).
func isRun(s string) bool {
	rs := []rune(s)
	step := 0
	for i := 1; i < len(rs); i++ {
		d := int(rs[i] - rs[i-1])
		if unicode.IsDigit(rs[i]) && unicode.IsDigit(rs[i-1]) && (d == 9 || d == -9) {
			d = -d / 9 // 9 → 0 goes on up, 0 → 9 goes on down
		}
		if d != 1 && d != -1 || step != 0 && d != step {
			return false
		}
		step = d
	}
	return true
}
