package replay

// This file writes a finished game's dump: a plain-text account of how it
// ended, kept with the record so that it can be read even when the game
// cannot be replayed (other rules).

import (
	"fmt"
	"strings"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// DumpMessages is how many of the last messages a dump shows.
const DumpMessages = 20

// Dump returns the plain-text account (ASCII but for names and messages,
// lines ending in "\n") of g, a game that has ended, played by name with
// data: name, score, cause, depth, turns, character level and stats,
// equipment and pack, kills by monster, the last DumpMessages messages,
// and the last level's map as the player knew it (explored tiles, remembered
// things, '@' for the player, in the ASCII symbol set).
func Dump(g *game.Game, data *content.Tables, name string) string {
	var b strings.Builder
	p, gr := g.Player(), g.Growth()
	if name == "" {
		name = "(no name)"
	}
	fmt.Fprintf(&b, "%s: %d points, %s.\n", name, g.Score(), g.Cause())
	fmt.Fprintf(&b, "Depth %d (%s), %s, %s.\n", g.Depth(), g.LevelName(), count(g.Turn(), "turn"), count(g.Kills(), "kill"))
	if g.Cheated() {
		b.WriteString("Cheats were used: not on the score table.\n")
	}
	fmt.Fprintf(&b, "\nCharacter level %d (%d/%d XP). HP %d/%d, power %d, defense %d.\n",
		gr.Level, gr.XP, gr.Next, max(0, p.HP), p.MaxHP, g.PlayerPower(), g.PlayerDefense())

	b.WriteString("\nEquipment:\n")
	worn := false
	for _, s := range []game.Slot{game.SlotWeapon, game.SlotArmour} {
		if it, ok := g.Worn(s); ok {
			fmt.Fprintf(&b, "  %s: %s\n", s, g.ItemName(it))
			worn = true
		}
	}
	if !worn {
		b.WriteString("  nothing worn\n")
	}
	b.WriteString("Pack:\n")
	inv := g.Inventory()
	for _, l := range packLines(g) {
		b.WriteString(l)
	}
	if len(inv) == 0 {
		b.WriteString("  empty\n")
	}

	b.WriteString("\nKills by monster:\n")
	slain := g.KillsByMonster()
	for _, k := range slain {
		fmt.Fprintf(&b, "  %4d %s\n", k.Count, k.Name)
	}
	if len(slain) == 0 {
		b.WriteString("  none\n")
	}

	b.WriteString("\nLast messages:\n")
	for i := max(0, g.LogLen()-DumpMessages); i < g.LogLen(); i++ {
		m := g.Message(i)
		text := m.Text
		if m.Count > 1 {
			text += fmt.Sprintf(" (x%d)", m.Count)
		}
		fmt.Fprintf(&b, "  %s\n", text)
	}

	b.WriteString("\nThe last level as the player knew it:\n")
	writeMap(&b, g, data)
	return b.String()
}

// writeMap draws the explored part of g's level, cropped to it.
func writeMap(b *strings.Builder, g *game.Game, data *content.Tables) {
	w, h := g.Size()
	x0, y0, x1, y1 := w, h, -1, -1
	for y := range h {
		for x := range w {
			if g.Explored(world.Pos{X: x, Y: y}) {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < 0 {
		b.WriteString("  (nothing explored)\n")
		return
	}
	things := map[world.Pos]rune{}
	for _, s := range g.Remembered() {
		if s.Item != "" {
			if it, ok := data.Item(string(s.Item)); ok {
				things[s.Pos] = it.ASCII
			}
		} else if _, ok := things[s.Pos]; !ok {
			things[s.Pos] = '%'
		}
	}
	things[g.Player().Pos] = '@'
	for y := y0; y <= y1; y++ {
		line := make([]rune, 0, x1-x0+1)
		for x := x0; x <= x1; x++ {
			p := world.Pos{X: x, Y: y}
			switch r, ok := things[p]; {
			case !g.Explored(p):
				line = append(line, ' ')
			case ok:
				line = append(line, r)
			default:
				line = append(line, g.Tile(p).ASCII())
			}
		}
		fmt.Fprintf(b, "  %s\n", strings.TrimRight(string(line), " "))
	}
}

// count is "1 kill" or "n kills": n and noun, plural but for one.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// packLines are the dump's lines for g's pack, in letter order, a stack on
// one line ("  c) 3 darts"), each item by the name the player knew it by
// and, where that hid its kind, what it was: "  b) scroll labelled THARR
// (unidentified: a confusion scroll)" (the game is over, so the dump
// tells, as NetHack's end of game does).
func packLines(g *game.Game) []string {
	inv := g.Inventory()
	var lines []string
	for _, st := range g.Stacks() {
		it := inv[st.Slot()]
		name := g.ItemName(it)
		if st.Count() > 1 {
			name = g.CountedName(st.Kind, st.Count())
		}
		if it.Worn {
			name += " (worn)"
		}
		if g.Unidentified(st.Kind) {
			name += " (unidentified: " + game.WithArticle(string(st.Kind)) + ")"
		}
		lines = append(lines, fmt.Sprintf("  %c) %s\n", st.Letter, name))
	}
	return lines
}
