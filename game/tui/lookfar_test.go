package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// A tester's bug: look mode on a tile seen before and out of
// view now named the floor but not the item the map still draws there.
// It names what the player remembers there, as the map shows it.
func TestLookingAtARememberedTileNamesTheItemsSeenThere(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	for range 4 { // explore a while
		cmd := press(m, "x")
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
	g := m.game
	w, h := g.Size()
	far := world.Pos{X: -1}
	for i := range w * h {
		p := world.Pos{X: i % w, Y: i / w}
		if g.Tile(p) == world.Floor && g.Explored(p) && !g.Visible(p) && len(g.Describe(p)) == 1 {
			far = p
			break
		}
	}
	if far.X < 0 {
		t.Fatalf("no remembered floor after exploring:\n%s", plain(m))
	}
	adopt(t, m, editSave(t, g, func(state map[string]any) {
		at := map[string]any{"X": far.X, "Y": far.Y}
		state["Items"] = append(state["Items"].([]any), map[string]any{"Kind": string(game.Dart), "Pos": at})
		seen, _ := state["Seen"].([]any)
		state["Seen"] = append(seen, map[string]any{"Pos": at, "Item": string(game.Dart)})
	}))
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	press(m, "/")
	ts := m.scr.(*targetScreen)
	ts.moveTo(m, far)
	ts.settle(m)
	if s := plain(m); !strings.Contains(s, "Dart") && !strings.Contains(s, "dart") {
		t.Errorf("look at %v, where a dart was seen, does not name it:\n%s", far, s)
	}
}
