// Reading grotto's screen: the turn counter and the tiles round the player,
// which end-to-end tests, the fault suite and the load generator compare.

package sshtest

import (
	"regexp"
	"strconv"
	"strings"
)

var turnRE = regexp.MustCompile(`Turn: (\d+)`)

// Turn returns the turn counter on grotto's status line, or -1 when the
// screen shows none.
func Turn(screen string) int {
	m := turnRE.FindStringSubmatch(screen)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// Around returns the 5x5 block of cells centred on the first '@' of the
// screen, row by row, or "" when there is no '@'. Cells are runes, so wide
// map glyphs (▒, ░) count as one each.
func Around(screen string) string {
	lines := strings.Split(screen, "\n")
	for y, l := range lines {
		for x, ch := range []rune(l) {
			if ch != '@' {
				continue
			}
			var b strings.Builder
			for dy := -2; dy <= 2; dy++ {
				var row []rune
				if y+dy >= 0 && y+dy < len(lines) {
					row = []rune(lines[y+dy])
				}
				for dx := -2; dx <= 2; dx++ {
					if i := x + dx; i >= 0 && i < len(row) {
						b.WriteRune(row[i])
					} else {
						b.WriteRune(' ')
					}
				}
				b.WriteByte('\n')
			}
			return b.String()
		}
	}
	return ""
}
