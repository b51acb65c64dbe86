package tui

import (
	"strings"
	"testing"
)

// A tester's bug: Escape pressed once the help (or the pack,
// or look mode) had closed said `Unknown command "esc"`. Escape with
// nothing to close says nothing and costs no turn.
func TestEscapeWithNothingToCloseIsSilent(t *testing.T) {
	for _, open := range []string{"?", "i", "/", ""} {
		m := newModel(t, newFakeStore(), 7)
		press(m, "enter")
		if open != "" {
			press(m, open)
			press(m, "esc") // closes it
		}
		turn := m.game.Turn()
		press(m, "esc")
		if s := plain(m); strings.Contains(s, "Unknown command") {
			t.Errorf("after %q and Escape, a second Escape says it is unknown:\n%s", open, s)
		}
		if _, ok := m.scr.(*playScreen); !ok || m.game.Turn() != turn {
			t.Errorf("after %q, Escape left the play screen (%T) or took a turn", open, m.scr)
		}
	}
}
