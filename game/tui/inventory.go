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

// inventoryScreen lists the stacks of the pack a verb accepts (identical
// items in one line, "3 health potions", game.Stacks), each under its
// letter: the stack's place in the pack, the same for every verb. A letter
// picks one item of the stack (game.Stack.Slot), so a command takes one from
// it; Esc goes back.
type inventoryScreen struct {
	back *playScreen
	verb verb
	note string
	top  int // first listed item shown, when the list is longer than the screen
}

func newInventory(back *playScreen, v verb) *inventoryScreen {
	return &inventoryScreen{back: back, verb: v}
}

func (s *inventoryScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	key := k.String()
	switch key {
	case "esc":
		return s.back, nil
	case "up", "pgup":
		s.top = max(0, s.top-s.rows(m))
		return s, nil
	case "down", "pgdown":
		s.top += s.rows(m)
		return s, nil
	}
	stacks := m.game.Stacks()
	r := []rune(key)
	if len(r) != 1 || r[0] < 'a' || r[0] > 'z' || int(r[0]-'a') >= len(stacks) || !s.verb.accepts(stacks[r[0]-'a'].Kind) {
		s.note = "Invalid entry."
		return s, nil
	}
	slot, kind := stacks[r[0]-'a'].Slot(), stacks[r[0]-'a'].Kind
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

// rows is how many stacks fit on screen at once.
func (s *inventoryScreen) rows(m *Model) int { return max(1, m.h-8) }

// firstShown is the first of n listed items to show: s.top, kept so that
// the screen is full when it can be.
func (s *inventoryScreen) firstShown(m *Model, n int) int { return max(0, min(s.top, n-s.rows(m))) }

// settle keeps the scroll position within the list at the model's size.
func (s *inventoryScreen) settle(m *Model) {
	n := 0
	for _, it := range m.game.Stacks() {
		if s.verb.accepts(it.Kind) {
			n++
		}
	}
	s.top = s.firstShown(m, n)
}

func (s *inventoryScreen) view(m *Model) string {
	th := m.th
	width := max(10, min(m.w-4, 44)) // text width inside the box
	var listed []string
	for i, it := range m.game.Stacks() {
		if s.verb.accepts(it.Kind) {
			st := th.scroll
			if it.Kind.Potion() {
				st = th.potion
			}
			listed = append(listed, th.heading.Render(fmt.Sprintf("(%c) ", 'a'+i))+st.Render(truncate(stackLabel(m.game, it), width-4)))
		}
	}
	rows, top := s.rows(m), s.firstShown(m, len(listed))
	var b strings.Builder
	b.WriteString(th.title.Render(truncate(s.verb.title(), width)) + "\n")
	switch {
	case len(listed) == 0 && s.verb == verbQuaff:
		b.WriteString(th.dim.Render("You carry no potions.") + "\n")
	case len(listed) == 0:
		b.WriteString(th.dim.Render("Your pack is empty.") + "\n")
	case top > 0:
		b.WriteString(th.dim.Render("  ↑ more") + "\n")
	default:
		b.WriteString("\n")
	}
	for _, l := range listed[top:min(len(listed), top+rows)] {
		b.WriteString(l + "\n")
	}
	if top+rows < len(listed) {
		b.WriteString(th.dim.Render("  ↓ more") + "\n")
	}
	if s.note != "" {
		b.WriteString(th.impossible.Render(s.note) + "\n")
	}
	b.WriteString(th.dim.Render(truncate(fmt.Sprintf("%d/%d · letter chooses · Esc back", len(m.game.Inventory()), game.InventorySize), width)))
	return m.center(th.box.Render(b.String()))
}

// stackName is how the pack names a stack: "fireball scroll" alone, "3
// health potions" for more (English plurals: +es after s, x, z, ch, sh).
// stackLabel is how the pack lists a stack: "3 health potions", or one
// item with how it is worn ("dagger (in hand)").
func stackLabel(g *game.Game, st game.Stack) string {
	if st.Count() == 1 {
		return itemLabel(g, g.Inventory()[st.Slot()])
	}
	return stackName(st)
}

func stackName(st game.Stack) string {
	name := string(st.Kind)
	if st.Count() == 1 {
		return name
	}
	switch {
	case strings.HasSuffix(name, "s"), strings.HasSuffix(name, "x"), strings.HasSuffix(name, "z"),
		strings.HasSuffix(name, "ch"), strings.HasSuffix(name, "sh"):
		name += "es"
	default:
		name += "s"
	}
	return fmt.Sprintf("%d %s", st.Count(), name)
}
