package tui

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

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
	verbCall // name an unknown kind
	verbRead
)

func (v verb) title() string {
	return [...]string{"Select an item to use", "Select a potion to quaff", "Select an item to drop", "Select an item to throw",
		"Select an unknown item to call", "Select a scroll to read"}[v]
}

// accepts reports whether v lists items of kind k in g: quaffing lists
// potions, reading scrolls, calling the kinds the player does not know
// yet.
func (v verb) accepts(g *game.Game, k game.ItemKind) bool {
	switch v {
	case verbQuaff:
		return k.Potion()
	case verbRead:
		return k.Scroll()
	case verbCall:
		return g.Unidentified(k)
	}
	return true
}

// inventoryScreen lists the stacks of the pack a verb accepts (identical
// items in one line, "3 health potions", game.Stacks), each under its
// letter, which stays with it while it lasts (game.Item.Letter), the same
// for every verb. A letter
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
	r := []rune(key)
	var st game.Stack
	ok := len(r) == 1
	if ok {
		st, ok = m.game.Stack(r[0])
	}
	if !ok || !s.verb.accepts(m.game, st.Kind) {
		s.note = "Invalid entry."
		return s, nil
	}
	slot, kind := st.Slot(), st.Kind
	switch s.verb {
	case verbDrop:
		return s.back.apply(m, game.Drop(slot))
	case verbThrow:
		return newTargeting(m, s.back, targetSingle, 0, fmt.Sprintf("Throw the %s where?", m.game.KindName(kind, 1)),
			func(p world.Pos) game.Command { return game.Throw(slot, p) }), nil
	case verbCall:
		return newCallScreen(s.back, slot, m.game.KindName(kind, 1)), nil
	}
	switch t, radius := m.game.UseTargeting(kind); t {
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
		if s.verb.accepts(m.game, it.Kind) {
			n++
		}
	}
	s.top = s.firstShown(m, n)
}

func (s *inventoryScreen) view(m *Model) string {
	th := m.th
	width := max(10, min(m.w-4, 56)) // text width inside the box: room for worn gear's whole stats at 80 columns
	var listed []string
	for _, it := range m.game.Stacks() {
		if s.verb.accepts(m.game, it.Kind) {
			st := th.scroll
			if it.Kind.Potion() {
				st = th.potion
			}
			listed = append(listed, th.heading.Render(fmt.Sprintf("(%c) ", it.Letter))+st.Render(truncate(packLabel(m.game, it, width-4), width-4)))
		}
	}
	rows, top := s.rows(m), s.firstShown(m, len(listed))
	var b strings.Builder
	b.WriteString(th.title.Render(truncate(s.verb.title(), width)) + "\n")
	switch {
	case len(listed) == 0 && s.verb == verbQuaff:
		b.WriteString(th.dim.Render("You carry no potions.") + "\n")
	case len(listed) == 0 && s.verb == verbRead:
		b.WriteString(th.dim.Render("You carry no scrolls.") + "\n")
	case len(listed) == 0 && s.verb == verbCall:
		b.WriteString(th.dim.Render("You know what all you carry is.") + "\n")
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
	// The pack holds InventorySize items, each of a stack one (the tester
	// read "10/26" beside six letters as letters).
	n := len(m.game.Inventory())
	foot := fmt.Sprintf("%d of %d items · letter chooses · Esc back", n, game.InventorySize)
	if ansi.StringWidth(foot) > width {
		foot = fmt.Sprintf("%d/%d items · Esc back", n, game.InventorySize)
	}
	b.WriteString(th.dim.Render(truncate(foot, width)))
	return m.center(th.box.Render(b.String()))
}

// stackLabel is how the pack lists a stack: "3 health potions", or one
// item with how it is worn ("dagger (in hand)").
func stackLabel(g *game.Game, st game.Stack) string {
	if st.Count() == 1 {
		return itemLabel(g, g.Inventory()[st.Slot()])
	}
	return stackName(g, st)
}

// packLabel is stackLabel with, for one piece of equipment, what wearing it
// gives ("rapier [atk +2, dodge +10%]", game.GearStats), as much of it as
// fits in width columns ("plate mail (worn) [def +5, …]"): gear can be
// compared before it is put on (the tester's rapier and sword), and worn
// gear says what it gives (a tester's worn plate mail said nothing).
func packLabel(g *game.Game, st game.Stack, width int) string {
	label := stackLabel(g, st)
	if st.Count() != 1 {
		return label
	}
	stats := strings.Split(g.GearStats(g.Inventory()[st.Slot()]), ", ")
	for n := len(stats); n > 0 && stats[0] != ""; n-- { // as much as fits, the first (atk or def) at least
		shown := strings.Join(stats[:n], ", ")
		if n < len(stats) {
			shown += ", …"
		}
		if ansi.StringWidth(label)+ansi.StringWidth(shown)+3 <= width {
			return label + " [" + shown + "]"
		}
	}
	return label
}

// stackName is how the pack names a stack as the player knows it
// (game.KindName): "fireball scroll" alone, "3 health potions", "2 murky
// potions", "2 scrolls labelled ZELGO MER" for more.
func stackName(g *game.Game, st game.Stack) string {
	name := g.CountedName(st.Kind, st.Count())
	if it := g.Inventory()[st.Slot()]; st.Count() > 1 && st.Kind.Wand() && g.Identified(st.Kind) {
		name += fmt.Sprintf(" (%d each)", it.Charges) // a stack's wands hold the same charges (a tester lost count)
	}
	return name
}

// callScreen asks for the name to call an unknown kind by (game.CallItem):
// printable text up to game.MaxCallRunes runes; Enter calls it (an empty
// name forgets the old one), Esc goes back at no cost.
type callScreen struct {
	back *playScreen
	slot int
	what string // the kind as the player names it now
	text string
}

func newCallScreen(back *playScreen, slot int, what string) *callScreen {
	return &callScreen{back: back, slot: slot, what: what}
}

func (s *callScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	switch k.String() {
	case "esc":
		return s.back, nil
	case "enter":
		return s.back.apply(m, game.CallItem(s.slot, s.text))
	case "backspace", "ctrl+h":
		if r := []rune(s.text); len(r) > 0 {
			s.text = string(r[:len(r)-1])
		}
	case "ctrl+u":
		s.text = ""
	default:
		// Only printable text is typed in (spaces too: game.CallItem
		// trims them), up to game.MaxCallRunes runes.
		if t := s.text + k.Text; k.Text != "" && utf8.RuneCountInString(t) <= game.MaxCallRunes && printable(k.Text) {
			s.text = t
		}
	}
	return s, nil
}

// printable reports whether every rune of t is printable (a space is).
func printable(t string) bool {
	for _, r := range t {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

func (s *callScreen) view(m *Model) string {
	th := m.th
	width := max(10, min(m.w-4, 44))
	var b strings.Builder
	b.WriteString(th.title.Render(truncate("Call the "+s.what+":", width)) + "\n\n")
	b.WriteString(th.selected.Render(" "+truncateLeft(s.text+"_", width-2)+" ") + "\n\n")
	b.WriteString(th.dim.Render(truncate(fmt.Sprintf("up to %d letters · Enter · Esc back", game.MaxCallRunes), width)))
	return m.center(th.box.Render(b.String()))
}
