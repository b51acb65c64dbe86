package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestTheTitlesScoreTableWritesCausesInTheThirdPerson: the table is read by
// everyone, so another player's death reads "it hit them for 5", not "it
// hit you for 5"; the record itself keeps the cause as
// its player read it, so old rows convert too.
func TestTheTitlesScoreTableWritesCausesInTheThirdPerson(t *testing.T) {
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 1)
	p.Board = replayBoard{{Name: "ann", Points: 500, Cause: "killed by an orc on depth 2 (it hit you for 5)", GameID: 1}}
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	s := plain(m)
	if !strings.Contains(s, "(it hit them for 5)") || strings.Contains(s, "hit you") {
		t.Errorf("the score table on the title:\n%s", s)
	}
}
