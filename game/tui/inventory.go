package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// verb is what an inventory screen does with the item chosen.
type verb uint8

const (
	verbUse verb = iota
	verbQuaff
	verbDrop
	verbThrow
)

func (v verb) title() string {
	return [...]string{"Select an item to use", "Select a potion to quaff", "Select an item to drop", "Select an item to throw"}[v]
}

// accepts reports whether v lists items of kind k.
func (v verb) accepts(k game.ItemKind) bool { return v != verbQuaff || k.Potion() }

// inventoryScreen lists the items a verb accepts under their slot letters;
// a letter picks one, Esc goes back.
type inventoryScreen struct {
	back *playScreen
	verb verb
	note string
}

func newInventory(back *playScreen, v verb) *inventoryScreen {
	return &inventoryScreen{back: back, verb: v}
}

func (s *inventoryScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	key := k.String()
	if key == "esc" {
		return s.back, nil
	}
	inv := m.game.Inventory()
	r := []rune(key)
	if len(r) != 1 || r[0] < 'a' || r[0] > 'z' || int(r[0]-'a') >= len(inv) || !s.verb.accepts(inv[r[0]-'a'].Kind) {
		s.note = "Invalid entry."
		return s, nil
	}
	slot := int(r[0] - 'a')
	kind := inv[slot].Kind
	switch s.verb {
	case verbDrop:
		return s.back.apply(m, game.Drop(slot))
	case verbThrow:
		return newTargeting(m, s.back, targetSingle, 0, fmt.Sprintf("Throw the %s where?", kind),
			func(p world.Pos) game.Command { return game.Throw(slot, p) }), nil
	}
	switch t, radius := kind.Targeting(); t {
	case game.TargetSingle:
		return newTargeting(m, s.back, targetSingle, 0, "Select a target.",
			func(p world.Pos) game.Command { return game.Use(slot, p) }), nil
	case game.TargetArea:
		return newTargeting(m, s.back, targetArea, radius, "Select a target location.",
			func(p world.Pos) game.Command { return game.Use(slot, p) }), nil
	}
	return s.back.apply(m, game.Use(slot, world.Pos{}))
}

func (s *inventoryScreen) view(m *Model) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.title.Render(s.verb.title()) + "\n\n")
	listed := 0
	for i, it := range m.game.Inventory() {
		if !s.verb.accepts(it.Kind) {
			continue
		}
		listed++
		st := th.text
		if it.Kind.Potion() {
			st = th.potion
		} else {
			st = th.scroll
		}
		b.WriteString(th.heading.Render(fmt.Sprintf("(%c) ", 'a'+i)) + st.Render(string(it.Kind)) + "\n")
	}
	if listed == 0 {
		if s.verb == verbQuaff {
			b.WriteString(th.dim.Render("You carry no potions.") + "\n")
		} else {
			b.WriteString(th.dim.Render("Your pack is empty.") + "\n")
		}
	}
	b.WriteString("\n")
	if s.note != "" {
		b.WriteString(th.impossible.Render(s.note) + "\n")
	}
	b.WriteString(th.dim.Render(fmt.Sprintf("%d/%d slots · letter to choose · Esc back", len(m.game.Inventory()), game.InventorySize)))
	return m.center(th.box.Render(b.String()))
}
