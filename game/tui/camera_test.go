package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestEveryMonsterInViewIsDrawnAt80x24: a tester at 80x24 was told an orc
// was "in view (7 tiles south-east)" and the map did not show it.
// Seeded games walk about at 80x24; after every step each living
// monster in view is drawn where it stands, and so is the player.
func TestEveryMonsterInViewIsDrawnAt80x24(t *testing.T) {
	keys := []string{"j", "j", "l", "l", "n", "n", "j", "b", "j", "j", "l", "n", "h", "y", "j", "j", "n", "l"}
	for seed := uint64(1); seed <= 40; seed++ {
		m := newModel(t, newFakeStore(), seed)
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		press(m, "enter")
		for i := range 120 {
			s, ok := m.scr.(*playScreen)
			if !ok || m.game == nil {
				break // the game ended
			}
			press(m, keys[(i*7+int(seed))%len(keys)])
			if s, ok = m.scr.(*playScreen); !ok {
				break
			}
			lines := strings.Split(ansi.Strip(m.View().Content), "\n")
			mapRows, _ := m.layout()
			g := m.game
			for _, a := range g.Actors() {
				if !a.Alive() || !g.Visible(a.Pos) {
					continue
				}
				row, col := a.Pos.Y-s.cam.y, a.Pos.X-s.cam.x
				if row < 0 || row >= mapRows || col < 0 || col >= m.w || []rune(lines[row])[col] != a.Glyph && a.Kind != "player" {
					t.Fatalf("seed %d turn %d: the %s in view at %v (camera %d,%d) is not drawn:\n%s",
						seed, g.Turn(), a.Name, a.Pos, s.cam.x, s.cam.y, strings.Join(lines, "\n"))
				}
			}
		}
	}
}
