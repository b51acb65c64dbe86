package tui

import (
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// withFloorItems returns g with one item of each kind lying on the tiles
// round the player (the eight next to them, then two steps away), made the
// way a save would carry them.
func withFloorItems(t *testing.T, g *game.Game, kinds []game.ItemKind) *game.Game {
	t.Helper()
	me := g.Player().Pos
	return editSave(t, g, func(state map[string]any) {
		var items []map[string]any
		for i, k := range kinds {
			d := world.Directions8[i%8]
			p := me.Add(d.X*(1+i/8), d.Y*(1+i/8))
			if i >= 24 { // 26 kinds; the last two a knight's move away, not four tiles
				p = me.Add(2*d.X+d.Y, 2*d.Y-d.X)
			}
			items = append(items, map[string]any{"Kind": string(k), "Pos": map[string]any{"X": p.X, "Y": p.Y}})
		}
		state["Items"] = items
	})
}

// An item's glyph in items.json was once checked but never drawn (the
// map drew a hard-coded '!' or '?'). The shipped data agrees with those, so
// the test draws with a copy of the data whose glyphs all differ.
func TestTheMapDrawsEachItemWithItsGlyphFromTheData(t *testing.T) {
	data := *content.Default()
	data.Items = append([]content.Item(nil), data.Items...)
	for i := range data.Items {
		data.Items[i].Glyph = 'α' + rune(i)
	}
	m, _ := openPlay(t)
	m.p.Data = &data
	kinds := game.ItemKinds()
	blob, err := withFloorItems(t, m.game, kinds).Encode()
	if err != nil {
		t.Fatal(err)
	}
	restart(t, m, blob)
	if len(m.game.Items()) != len(kinds) {
		t.Fatalf("%d items on the floor, want %d", len(m.game.Items()), len(kinds))
	}
	cam := m.scr.(*playScreen).cam
	lines := strings.Split(plain(m), "\n")
	for _, it := range m.game.Items() {
		want, _ := data.Item(string(it.Kind))
		row := []rune(lines[it.Pos.Y-cam.y])
		if got := row[it.Pos.X-cam.x]; got != want.Glyph {
			t.Errorf("a %s at %v is drawn %q; items.json says %q", it.Kind, it.Pos, got, want.Glyph)
		}
	}
}
