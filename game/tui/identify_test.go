package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
)

// unknownPack gives the player a pack of kinds the player does not know.
func unknownPack(t *testing.T, m *Model, kinds ...game.ItemKind) {
	t.Helper()
	adopt(t, m, editSave(t, m.game, func(state map[string]any) {
		var inv []map[string]any
		for _, k := range kinds {
			inv = append(inv, map[string]any{"Kind": string(k)})
		}
		state["Inventory"] = inv
	}))
}

// C, a letter, a name and Enter call an unknown kind; the pack
// then lists it by its look and that name, and it costs no turn.
func TestCallingAnUnknownPotionNamesItInThePack(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	unknownPack(t, m, game.PoisonPotion, game.Dagger)
	look := m.game.KindName(game.PoisonPotion, 1)
	press(m, "C")
	if s := plain(m); !strings.Contains(s, "Select an unknown item to call") || !strings.Contains(s, look) || strings.Contains(s, "dagger") {
		t.Fatalf("the call menu:\n%s", s)
	}
	press(m, "a")
	for _, k := range "bad one" {
		press(m, string(k))
	}
	turn := m.game.Turn()
	press(m, "enter")
	if got := m.game.CalledName(game.PoisonPotion); got != "bad one" || m.game.Turn() != turn {
		t.Fatalf("called %q, turn %d", got, m.game.Turn())
	}
	press(m, "i")
	if s := plain(m); !strings.Contains(s, look+" called bad one") || strings.Contains(s, "poison") {
		t.Errorf("the pack:\n%s", s)
	}
}

// With no colour, two unknown potions are still told
// apart, by their looks' names in the pack.
func TestUnknownPotionsDifferByNameWithoutColour(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	unknownPack(t, m, game.HealthPotion, game.PoisonPotion)
	press(m, "i")
	s := plain(m)
	a, b := m.game.KindName(game.HealthPotion, 1), m.game.KindName(game.PoisonPotion, 1)
	if a == b || !strings.Contains(s, a) || !strings.Contains(s, b) {
		t.Errorf("%q and %q in:\n%s", a, b, s)
	}
}

// The breaker's leak: an unidentified scroll was drawn in its kind's
// colour (fireball orange, confusion purple, the rest yellow), so the map
// told what the label hid. Every unknown scroll, and every unknown wand,
// is drawn alike; a potion in its appearance's colour, as before.
func TestUnknownScrollsAndWandsLookAlikeOnTheMap(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	g := m.game
	var scroll, wand *mark
	for _, k := range game.ItemKinds() {
		if !g.Unidentified(k) || k.Potion() {
			continue
		}
		mk := itemMark(g, m.p.Data, k)
		first := &scroll
		if k.Wand() {
			first = &wand
		}
		if *first == nil {
			*first = &mk
		} else if mk != **first {
			t.Errorf("the unknown %s is drawn %+v, another of its class %+v", k, mk, **first)
		}
	}
	if scroll == nil || wand == nil {
		t.Fatal("no unknown scroll or wand at the start")
	}
}

// The breaker's wide names: a kind called with 24 CJK characters (48
// columns) broke the call box's border at 40x12 and widened the pack past
// its 44 columns; text is cut by screen columns, not by runes.
func TestAWideNameStaysInsideItsBox(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	unknownPack(t, m, game.PoisonPotion)
	wide := strings.Repeat("健康", 12)
	press(m, "C")
	press(m, "a")
	for _, r := range wide {
		press(m, string(r))
	}
	for _, size := range [][2]int{{40, 12}, {100, 30}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for _, l := range strings.Split(plain(m), "\n") {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: the call box draws a line %d columns wide: %q", size[0], size[1], w, l)
			}
		}
	}
	press(m, "enter")
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	press(m, "i")
	top := 0 // the box's top border: its width is the box's (56 columns inside at most)
	for _, l := range strings.Split(plain(m), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "╭") {
			top = ansi.StringWidth(l)
		}
		if strings.Contains(l, "健") && ansi.StringWidth(l) != top {
			t.Errorf("the pack draws a line %d columns wide in a box %d wide: %q", ansi.StringWidth(l), top, l)
		}
	}
	if top == 0 || top > 60 {
		t.Errorf("the pack's box is %d columns wide", top)
	}
}
