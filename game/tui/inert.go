package tui

import "strings"

// Inert makes text safe to show on someone's terminal: every control
// character (every escape sequence starts with one) becomes U+FFFD, so
// nothing one player sent can move another's cursor, change colours or
// retitle a window. Names and anything else a client chose go through it.
func Inert(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '\uFFFD'
		}
		return r
	}, s)
}
