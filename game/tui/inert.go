package tui

import "strings"

// Inert makes text safe to show on someone's terminal: every control
// character (every escape sequence starts with one) becomes U+FFFD, so
// nothing one player sent can move another's cursor, change colours or
// retitle a window; so does every bidirectional formatting character
// (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), which would
// make the text after it read in another order than it was written
// (CVE-2021-42574, "Trojan Source"). Names and anything else a client
// chose go through it.
func Inert(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return '\uFFFD'
		case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return '\uFFFD'
		}
		return r
	}, s)
}
