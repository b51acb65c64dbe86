package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
)

// TestHelpScrollsToShowEverythingAt40x12: on the smallest terminal every
// key and every legend entry (each tile, monster, item, remains and you)
// can be reached by scrolling, every frame fits, and a key that does not
// scroll goes back to the game.
func TestHelpScrollsToShowEverythingAt40x12(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	press(m, "?")
	var seen strings.Builder
	for i := 0; i < 400; i++ {
		s := plain(m)
		lines := strings.Split(s, "\n")
		if len(lines) != 12 {
			t.Fatalf("frame %d has %d lines:\n%s", i, len(lines), s)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > 40 {
				t.Fatalf("a line is wider than 40: %q", l)
			}
		}
		seen.WriteString(s + "\n")
		press(m, "j")
	}
	all := strings.Join(strings.Fields(seen.String()), " ")
	want := []string{"arrows, h j k l", "Esc or q", "@ you", "% remains", "X * aiming"}
	for _, k := range game.TileKinds() {
		want = append(want, game.TileInfo(m.p.Data, k).Name+":")
	}
	for _, mon := range m.p.Data.Monsters {
		want = append(want, string(mon.Glyph)+" "+mon.Name+":")
	}
	for _, it := range m.p.Data.Items {
		switch k := game.ItemKind(it.ID); { // their looks are shuffled per game, so one line per class
		case k.Potion():
			want = append(want, string(it.Glyph)+" potion:")
		case k.Scroll():
			want = append(want, string(it.Glyph)+" scroll:")
		case k.Wand():
			want = append(want, string(it.Glyph)+" wand:")
		default:
			want = append(want, string(it.Glyph)+" "+it.ID)
		}
	}
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("scrolling the help at 40x12 never shows %q", w)
		}
	}
	press(m, "k")
	if _, ok := m.scr.(*helpScreen); !ok {
		t.Fatal("k left the help")
	}
	press(m, "x")
	if _, ok := m.scr.(*playScreen); !ok || m.game.Turn() != 0 {
		t.Errorf("another key should go back to the game at no cost: %T, turn %d", m.scr, m.game.Turn())
	}
}

// TestTheLegendShowsEveryGlyphTheMapCanDraw: each tile's look on lit levels
// and in the caverns, each monster's and item's glyph from the data.
func TestTheLegendShowsEveryGlyphTheMapCanDraw(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	have := map[rune]bool{}
	for _, e := range legend(m.p.Data, false) {
		for _, g := range e.glyphs {
			have[g.ch] = true
		}
	}
	var want []rune
	for _, k := range game.TileKinds() {
		want = append(want, lookOf(k, false).ch, lookOf(k, true).ch)
	}
	for _, mon := range m.p.Data.Monsters {
		want = append(want, mon.Glyph)
	}
	for _, it := range m.p.Data.Items {
		want = append(want, it.Glyph)
	}
	want = append(want, '@', '%')
	for _, r := range want {
		if !have[r] {
			t.Errorf("the legend lacks %q", r)
		}
	}
}

// TestTheASCIILegendShowsTheASCIIGlyphs: with ASCII symbols the legend
// shows the glyphs the map then draws (the gelatinous cube is its data's
// "c", not the "#" of walls that a blanket replacement would give).
func TestTheASCIILegendShowsTheASCIIGlyphs(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	got := map[string]rune{}
	for _, e := range legend(m.p.Data, true) {
		for _, g := range e.glyphs {
			if g.ch > 0x7f {
				t.Errorf("%s is shown as %q in ASCII", e.name, g.ch)
			}
		}
		got[e.name] = e.glyphs[0].ch
	}
	for _, mon := range m.p.Data.Monsters {
		if want := asciiMark(m.p.Data, mon.ID, mon.Glyph); got[mon.Name] != want {
			t.Errorf("%s: legend %q, map %q", mon.Name, got[mon.Name], want)
		}
	}
	for _, k := range game.TileKinds() {
		if name := game.TileInfo(m.p.Data, k).Name; got[name] != k.ASCII() {
			t.Errorf("%s: legend %q, map %q", name, got[name], k.ASCII())
		}
	}
}
