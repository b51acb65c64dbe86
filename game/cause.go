package game

// This file turns the cause of a death, written for the player who died
// ("killed by an orc on depth 2 (it hit you for 5)"), into the third person
// for shared tables and other players' screens ("... (it hit them for 5)").
// The cause is stored once, as the player read it; tables convert it when
// they draw it, so records written before this conversion read right too.

import (
	"strings"
	"unicode"
)

// thirdPerson maps each second-person word a cause uses to its third-person
// form (singular they).
var thirdPerson = map[string]string{
	"you": "them", "You": "They", "your": "their", "Your": "Their",
	"yours": "theirs", "yourself": "themselves", "you're": "they're",
}

// ThirdPerson returns cause with "you" and "your" as "them" and "their", a
// whole word at a time: "killed by an orc on depth 2 (it hit you for 5)"
// becomes "killed by an orc on depth 2 (it hit them for 5)", and "(your own,
// for 8)" "(their own, for 8)". Words that merely contain "you" ("young")
// are kept. Shared tables, read by every player, show this form; the player's own
// game-over screen keeps Cause as it is.
func ThirdPerson(cause string) string {
	if !strings.Contains(strings.ToLower(cause), "you") {
		return cause
	}
	var b strings.Builder
	word := func(r rune) bool { return unicode.IsLetter(r) || r == '\'' }
	for i := 0; i < len(cause); {
		j := i
		for j < len(cause) && word(rune(cause[j])) {
			j++
		}
		if j == i {
			b.WriteByte(cause[i])
			i++
			continue
		}
		w := cause[i:j]
		if t, ok := thirdPerson[w]; ok {
			w = t
		}
		b.WriteString(w)
		i = j
	}
	return b.String()
}
