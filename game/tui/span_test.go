package tui

import (
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/grotto-game/grotto/game"
)

// A span draws a line exactly as its lipgloss style does, for every style
// the frame draws through one, on every colour profile's theme.
func TestASpanDrawsALineAsItsStyleDoes(t *testing.T) {
	texts := []string{"HP: 30/30 LOW HP", " Depth: 3 (Limestone Caverns)  Turn: 1204 ", "? help",
		"You descend to depth 5 of 6.", "The cave wolf bites you for 4 hit points…", "x", "é ✓ ░▓", ""}
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.Ascii, colorprofile.NoTTY} {
		th := newTheme(p)
		styles := map[string]lipgloss.Style{"status": th.status, "hpGood": th.hpGood, "hpLow": th.hpLow, "dim": th.dim, "impossible": th.impossible}
		for k := range th.msg {
			styles["msg "+string(rune('0'+int(k)))] = th.msgStyle(k)
		}
		styles["unknown kind"] = th.msgStyle(game.MsgKind(99))
		for name, st := range styles {
			sp := spanOf(st)
			for _, text := range texts {
				if got, want := sp.render(text), st.Render(text); got != want {
					t.Errorf("profile %v, %s, %q: span draws %q, lipgloss %q", p, name, text, got, want)
				}
			}
		}
	}
}
