package tui

// This file is what the player sees of character growth and equipment: the
// status line's level, XP, attack and defense, the inventory's "(in hand)" and
// "(worn)", and the level-up screen (python-tcod tutorial part 11,
// LevelUpEventHandler): when the player's XP reaches the next level, the
// game waits for a choice of +20 max HP, +1 power or +1 defense. The screen
// cannot be left without choosing (Ctrl+C still saves and leaves; the choice
// waits in the save), and the choice is a journaled game.LevelUp command.

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/grotto-game/grotto/game"
)

// levelUpScreen asks which attribute the new level raises. A letter only
// marks a choice and Enter takes it: a player who types ahead with vi keys
// (b is down-left) must see the screen before a stat is spent (found by a
// tester: five b's answered a screen that never showed).
type levelUpScreen struct {
	back *playScreen
	note string
	sel  int // the marked choice, -1 for none
}

// afterTurn returns the screen to show after a command on play screen p:
// the level-up screen while a level-up waits for its choice, else p.
func (m *Model) afterTurn(p *playScreen) screen {
	if m.game != nil && !m.game.Over() && m.game.Growth().Pending {
		return &levelUpScreen{back: p, sel: -1}
	}
	return p
}

// levelUpChoices are the choices in the order and with the keys of the
// tutorial: a) Constitution, b) Strength, c) Agility.
var levelUpChoices = [...]struct {
	key  string
	stat game.Stat
}{{"a", game.StatHP}, {"b", game.StatPower}, {"c", game.StatDefense}}

func (s *levelUpScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	for i, c := range levelUpChoices {
		if k.String() == c.key {
			s.sel, s.note = i, ""
			return s, nil
		}
	}
	if k.String() == "enter" && s.sel >= 0 {
		next, cmd := s.back.apply(m, game.LevelUp(levelUpChoices[s.sel].stat))
		if p, ok := next.(*playScreen); ok && p.note != "" && m.game.Growth().Pending {
			s.note = p.note // refused or not durable: say so here, still choosing
			p.note = ""
			return s, cmd
		}
		return next, cmd
	}
	s.note = "Invalid entry. Choose a, b or c, then Enter."
	return s, nil
}

func (s *levelUpScreen) view(m *Model) string {
	th := m.th
	g := m.game
	gr, p := g.Growth(), g.Player()
	width := max(10, min(m.w-4, 44)) // text width inside the box
	line := func(st lipgloss.Style, text string) string {
		return st.Render(truncate(text, width)) + "\n"
	}
	var b strings.Builder
	b.WriteString(line(th.title, "Level Up"))
	b.WriteString(line(th.text, fmt.Sprintf("Congratulations! You reach level %d!", gr.Level+1)))
	b.WriteString(line(th.text, "Select an attribute to increase."))
	b.WriteString("\n")
	power, defense := g.PlayerOwn() // what a level raises, not what gear and potions add (the tester's "from 12")
	for i, text := range []string{
		fmt.Sprintf("Constitution (+%d HP, from %d)", game.LevelUpHP, p.MaxHP),
		fmt.Sprintf("Strength (+%d attack, from %d)", game.LevelUpPower, power),
		fmt.Sprintf("Agility (+%d defense, from %d)", game.LevelUpDefense, defense),
	} {
		mark, st := "  ", th.text
		if i == s.sel {
			mark, st = "> ", th.selected
		}
		b.WriteString(mark + th.heading.Render(fmt.Sprintf("(%s) ", levelUpChoices[i].key)) + st.Render(truncate(text, width-6)) + "\n")
	}
	if power != g.PlayerPower() || defense != g.PlayerDefense() {
		b.WriteString(line(th.dim, "Gear, potions and hunger count on top."))
	}
	if s.note != "" {
		b.WriteString(line(th.impossible, s.note))
	}
	b.WriteString(th.dim.Render(truncate("a, b or c marks · Enter takes it", width)))
	return m.center(th.box.Render(b.String()))
}

// growthWide is the status line's level and experience, and with stats the
// fighting attack and defense (equipment included):
// "  Lv: 2  XP: 40/500  Atk: 9  Def: 3".
func growthWide(g *game.Game, stats bool) string {
	return growthLine(g, stats, "  Lv: %d  XP: %d/%d", "  Atk: %d  Def: %d")
}

// growthShort is growthWide with short labels, for a status line running
// out of room: "  L2 XP40/500  Atk 5 Def 2".
func growthShort(g *game.Game, stats bool) string {
	return growthLine(g, stats, "  L%d XP%d/%d", "  Atk %d Def %d")
}

// growthLine formats level, XP and next with growth, then, with stats,
// attack and defense with fight.
func growthLine(g *game.Game, stats bool, growth, fight string) string {
	gr := g.Growth()
	s := fmt.Sprintf(growth, gr.Level, gr.XP, gr.Next)
	if stats {
		s += fmt.Sprintf(fight, g.PlayerPower(), g.PlayerDefense())
	}
	return s
}

// growthNarrow is growthWide for narrow terminals: " L2 XP40/500".
func growthNarrow(g *game.Game) string {
	gr := g.Growth()
	return fmt.Sprintf(" L%d XP%d/%d", gr.Level, gr.XP, gr.Next)
}

// itemLabel is how the inventory names a carried item: its kind, and for
// worn equipment where it is worn (python-tcod part 13 marks it "(E)").
func itemLabel(g *game.Game, it game.Item) string {
	name := g.ItemName(it) // as the player knows it
	if !it.Worn {
		return name
	}
	if slot, _, _, _ := g.EquipOf(it.Kind); slot == game.SlotWeapon {
		return name + " (in hand)"
	}
	return name + " (worn)"
}
