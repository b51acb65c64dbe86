package tui

// This file is the help screen: the keys of the play and aiming key maps
// (keymap.go), then the map legend, built from the same data the map is
// drawn and looked at with (tiles.json and monsters.json for names and
// descriptions, items.json and the theme for glyphs), so that every glyph
// that can appear is explained. It scrolls when the terminal is too small
// to show it all.

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
)

// helpScreen lists the keys (the cheat menu's only for admins) and the map
// legend. j/k, the arrows, PgUp/PgDn and Home/End scroll; any other key
// returns to the game.
type helpScreen struct {
	back screen
	top  int // the first line shown
}

// helpRows is how many lines of help fit above the footer.
func helpRows(m *Model) int { return max(1, m.h-1) }

func (h *helpScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	rows := helpRows(m)
	switch k.String() {
	case "down", "j":
		h.top++
	case "up", "k":
		h.top--
	case "pgdown":
		h.top += rows
	case "pgup":
		h.top -= rows
	case "home":
		h.top = 0
	case "end":
		h.top = len(h.lines(m))
	default:
		return h.back, nil
	}
	return h, nil
}

// settle keeps the scroll position within the help at the model's size.
func (h *helpScreen) settle(m *Model) {
	h.top = max(0, min(h.top, len(h.lines(m))-helpRows(m)))
}

func (h *helpScreen) view(m *Model) string {
	lines := h.lines(m)
	rows := helpRows(m)
	if len(lines)+2 <= m.h { // it all fits: centred, as it always was
		return m.center(strings.Join(lines, "\n") + "\n\n" + m.th.dim.Render("Press any key to return."))
	}
	// Scrolling: one left margin for the whole help, so that lines do not
	// move sideways as they scroll.
	width := 0
	for _, l := range lines {
		width = max(width, ansi.StringWidth(l))
	}
	margin := strings.Repeat(" ", max(0, (m.w-width)/2))
	top := max(0, min(h.top, len(lines)-rows))
	var b strings.Builder
	for _, l := range lines[top:min(len(lines), top+rows)] {
		b.WriteString(margin + l + "\n")
	}
	last := min(len(lines), top+rows)
	foot := fmt.Sprintf("lines %d-%d of %d · j/k ↑/↓ PgUp/PgDn scroll · any other key returns", top+1, last, len(lines))
	if ansi.StringWidth(margin+foot) > m.w {
		foot = fmt.Sprintf("%d-%d/%d j/k PgUp/PgDn · other: back", top+1, last, len(lines))
	}
	b.WriteString(m.th.dim.Render(truncate(margin+foot, m.w)))
	return b.String()
}

// lines returns the whole help, each line fitted to the terminal's width.
func (h *helpScreen) lines(m *Model) []string {
	th := m.th
	w := max(1, m.w)
	var out []string
	add := func(s string) {
		out = append(out, strings.Split(ansi.Wrap(s, w, " "), "\n")...)
	}
	list := func(km keyMap) {
		for _, r := range km {
			if !r.admin || m.admin() {
				add(th.heading.Render(fmt.Sprintf("%-16s", r.label)) + th.text.Render(r.help))
			}
		}
	}
	add(th.title.Render("Keys"))
	add("")
	list(m.keys.play)
	add("")
	add(th.title.Render("While aiming (throw, use, look)"))
	list(m.keys.aim)
	add("")
	add(th.title.Render("Health and hunger"))
	for _, l := range clockHelp() {
		add(th.text.Render(l))
	}
	add("")
	add(th.title.Render("On the map"))
	for _, e := range legend(m.p.Data, m.ascii()) {
		var glyphs strings.Builder
		for i, g := range e.glyphs {
			if i > 0 {
				glyphs.WriteByte(' ')
			}
			st := lipgloss.NewStyle().Foreground(rgb(g.fg.R, g.fg.G, g.fg.B))
			if g.item { // on an altar: as the map draws it (mapview.go, bgAltar)
				st = lipgloss.NewStyle().Foreground(rgb(0, 0, 0)).Background(rgb(altarGold.R, altarGold.G, altarGold.B)).Underline(true)
			}
			glyphs.WriteString(st.Render(string(g.ch)))
		}
		pad := strings.Repeat(" ", max(1, 5-ansi.StringWidth(glyphs.String())))
		text := th.heading.Render(e.name)
		if e.description != "" {
			text += th.text.Render(": " + e.description)
		}
		add(glyphs.String() + pad + text)
	}
	return out
}

// legendEntry is one line of the map legend: the glyphs a thing is drawn
// with (a tile can look different in the caverns), its name and what it is.
type legendEntry struct {
	glyphs      []mark
	name        string
	description string
}

// legend lists everything the map can show: the player, every tile kind
// (names and descriptions from tiles.json, glyphs from the theme on lit
// levels and in the caverns), every monster (monsters.json), remains, every
// item (items.json) and the aiming marks of terminals without colours.
func legend(data *content.Tables, ascii bool) []legendEntry {
	white := content.RGB{R: 255, G: 255, B: 255}
	out := []legendEntry{{glyphs: []mark{{ch: '@', fg: white}}, name: "you"}}
	for _, k := range game.TileKinds() {
		e := legendEntry{name: game.TileInfo(data, k).Name, description: game.TileInfo(data, k).Description}
		for _, cave := range []bool{false, true} {
			l := lookOf(k, cave)
			if ascii {
				l.ch = k.ASCII()
			}
			if len(e.glyphs) == 0 || e.glyphs[0].ch != l.ch {
				e.glyphs = append(e.glyphs, mark{ch: l.ch, fg: l.fg})
			}
		}
		out = append(out, e)
	}
	for _, mon := range data.Monsters {
		ch := mon.Glyph
		if ascii {
			ch = asciiMark(data, mon.ID, ch)
		}
		out = append(out, legendEntry{glyphs: []mark{{ch: ch, fg: mon.FG}}, name: mon.Name, description: mon.Description + " " + game.Behaviour(mon)})
	}
	fg, _ := actorFG(data, game.Actor{Corpse: true})
	out = append(out, legendEntry{glyphs: []mark{{ch: '%', fg: fg}}, name: "remains", description: "what is left of a monster: you can walk over it"})
	out = append(out, itemLegend(data, ascii)...)
	if len(data.Items) > 0 { // a tester found an item hid the altar under it
		it := data.Items[0]
		ch := it.Glyph
		if ascii {
			ch = asciiMark(data, it.ID, ch)
		}
		out = append(out, legendEntry{glyphs: []mark{{ch: ch, fg: it.FG, item: true}}, name: "an item on an altar",
			description: "black on the altar's gold, underlined: a shrine's offering (take one and the others vanish)"})
	}
	out = append(out, legendEntry{glyphs: []mark{{ch: 'X', fg: white}, {ch: '*', fg: white}}, name: "aiming",
		description: "the cursor and the blast, on terminals without colours"})
	return out
}

// itemLegend is the legend's items: a potion's colour, a scroll's label
// and a wand's material are shuffled each game, so it names the classes,
// each once, and every other item by its kind.
func itemLegend(data *content.Tables, ascii bool) []legendEntry {
	var out []legendEntry
	classes := []struct {
		is          func(game.ItemKind) bool
		name, about string
	}{
		{game.ItemKind.Potion, "potion", "its colour is its look, shuffled each game: drink one (q) to learn the kind"},
		{game.ItemKind.Scroll, "scroll", "its label is shuffled each game: read one to learn the kind"},
		{game.ItemKind.Wand, "wand", "its material is shuffled each game: zap it at a monster; charges run out"},
	}
	done := make([]bool, len(classes))
	for _, it := range data.Items {
		ch := it.Glyph
		if ascii {
			ch = asciiMark(data, it.ID, ch)
		}
		e := legendEntry{glyphs: []mark{{ch: ch, fg: it.FG}}, name: it.ID}
		class := -1
		for i, c := range classes {
			if c.is(game.ItemKind(it.ID)) {
				class = i
			}
		}
		if class >= 0 {
			if done[class] {
				continue
			}
			done[class] = true
			e.name, e.description = classes[class].name, classes[class].about
		}
		out = append(out, e)
	}
	return out
}

// clockHelp is the help's words on regeneration and hunger (game/clock.go),
// with the numbers the game plays by.
func clockHelp() []string {
	return []string{
		fmt.Sprintf("You regain 1 HP every %d turns at level 1 (%d at level 2, %d at 3, %d at 5: half NetHack's rate), "+
			"but not while poisoned or weak from hunger. R rests until healed.",
			game.RegenEvery(1), game.RegenEvery(2), game.RegenEvery(3), game.RegenEvery(5)),
		fmt.Sprintf("Every turn costs 1 nutrition: you start with %d, a food ration gives %d (up to %d). "+
			"Hungry at %d, Weak at %d (-%d power, no regeneration), Fainting at %d; at 0 you lose %d HP a turn until you eat.",
			game.StartNutrition, game.RationNutrition, game.MaxNutrition, game.HungryBelow, game.WeakBelow,
			game.WeakPowerLoss, game.FaintingBelow, game.StarveDamage),
		fmt.Sprintf("Monsters keep arriving: every %d to %d turns on a level one comes from out of sight and hunts you "+
			"(\"You hear something moving in the distance.\").", game.WanderMinTurns, game.WanderMaxTurns),
	}
}
