package tui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// cellAttrs returns, per screen row and column, the SGR parameters in
// effect where each character of frame is drawn (frame as a terminal gets
// it after the renderer's downsampling).
func cellAttrs(frame string) [][]string {
	var rows [][]string
	var row []string
	cur := ""
	for i := 0; i < len(frame); {
		switch {
		case frame[i] == '\x1b' && i+1 < len(frame) && frame[i+1] == '[':
			j := i + 2
			for j < len(frame) && (frame[j] < 0x40 || frame[j] > 0x7e) {
				j++
			}
			if j < len(frame) && frame[j] == 'm' {
				p := frame[i+2 : j]
				if p == "" || p == "0" || strings.HasPrefix(p, "0;") {
					cur = strings.TrimPrefix(strings.TrimPrefix(p, "0"), ";")
				} else {
					cur += ";" + p
				}
			}
			i = j + 1
		case frame[i] == '\n':
			rows, row = append(rows, row), nil
			i++
		default:
			r := []rune(frame[i:])[0]
			row = append(row, cur)
			i += len(string(r))
		}
	}
	return append(rows, row)
}

// TestWithoutColourRememberedTilesDifferFromSeenOnes: with the no-colour
// setting, a remembered floor looked exactly like a floor in view: it
// is drawn faint, an attribute that needs no colour.
func TestWithoutColourRememberedTilesDifferFromSeenOnes(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	m.set.Colour = ColourNone
	m.th = newTheme(m.profile())
	press(m, "enter")
	for _, k := range []string{"x", "x", "x", "x", "x", "x"} { // explore a while
		cmd := press(m, k)
		for range 200 {
			if cmd == nil {
				break
			}
			msg := cmd()
			if _, ok := msg.(tripStep); !ok {
				break
			}
			_, cmd = m.Update(msg)
		}
	}
	var out bytes.Buffer
	w := &colorprofile.Writer{Forward: &out, Profile: colorprofile.ASCII}
	if _, err := w.WriteString(m.View().Content); err != nil {
		t.Fatal(err)
	}
	attrs := cellAttrs(out.String())
	s := m.scr.(*playScreen)
	g := m.game
	mapRows, _ := m.layout()
	seen, remembered := map[string]bool{}, map[string]bool{}
	for row := range mapRows {
		for col := range m.w {
			p := world.Pos{X: s.cam.x + col, Y: s.cam.y + row}
			if g.Tile(p) != world.Floor || !g.Explored(p) || row >= len(attrs) || col >= len(attrs[row]) {
				continue
			}
			if g.Visible(p) {
				seen[attrs[row][col]] = true
			} else {
				remembered[attrs[row][col]] = true
			}
		}
	}
	if len(seen) == 0 || len(remembered) == 0 {
		t.Fatalf("want floors both in view and remembered; in view %v, remembered %v:\n%s", seen, remembered, plain(m))
	}
	for a := range remembered {
		if seen[a] {
			t.Errorf("a remembered floor is drawn as one in view (attributes %q) without colour", a)
		}
	}
}

// TestWithoutColourPotionsInThePackReadApart: with no colour the pack's
// potion lines still differ, by name (the items' own
// appearance names are the items helper's). A guard: it passed when
// written, as the pack names each stack.
func TestWithoutColourPotionsInThePackReadApart(t *testing.T) {
	kinds := []game.ItemKind{game.HealthPotion, game.PoisonPotion, game.WarriorPotion}
	m := newModel(t, newFakeStore(), 7)
	m.set.Colour = ColourNone
	m.th = newTheme(m.profile())
	press(m, "enter")
	adopt(t, m, withPack(t, m.game, kinds))
	press(m, "q") // quaff: the potions only
	lines := map[string]bool{}
	for _, l := range strings.Split(plain(m), "\n") {
		if i := strings.Index(l, "("); i >= 0 && strings.Contains(l, ") ") {
			line := strings.TrimSpace(strings.Trim(l[i+4:], "│ "))
			if lines[line] {
				t.Errorf("two potions read the same without colour: %q", line)
			}
			lines[line] = true
		}
	}
	if len(lines) != len(kinds) {
		t.Errorf("%d potion lines, want %d:\n%s", len(lines), len(kinds), plain(m))
	}
}
