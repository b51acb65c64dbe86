package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// This file holds the options a player keeps: the
// symbol set (Unicode or ASCII, as NetHack's DECgraphics and default symbol
// sets) and the colour depth, the settings screen that changes them, and how
// they reach the drawing: ASCII glyphs per tile kind, a last pass that
// leaves no byte above 0x7F in an ASCII frame, and a colour profile forced
// on Bubble Tea's renderer.

// Settings are the options a player keeps between sessions, in their
// profile. The zero value, and any value this version does not know, reads
// as the defaults (Unicode, auto colour).
type Settings struct {
	Symbols Symbols
	Colour  Colour
	Chat    Chat
}

// Chat is whether the play screen shows the game's chat (chat.go).
type Chat string

// The chat's settings.
const (
	ChatOn  Chat = "on"  // the newest chat line under the messages (the default)
	ChatOff Chat = "off" // no chat line; watchers may still talk
)

// Symbols is the glyph set the map is drawn with.
type Symbols string

// The symbol sets.
const (
	// SymbolsUnicode draws caverns with block and box-drawing glyphs
	// (▒ ░ ▓ ╨ ╥, after bracket-lib's "Theming the caverns"): the default.
	SymbolsUnicode Symbols = "unicode"
	// SymbolsASCII draws every tile kind, monster and item with its own
	// printable ASCII character, for fonts and terminals without those
	// glyphs; every frame is then pure ASCII.
	SymbolsASCII Symbols = "ascii"
)

// Colour is the colour depth the session draws with.
type Colour string

// The colour depths.
const (
	ColourAuto Colour = "auto"      // what the terminal reports (the default)
	Colour16   Colour = "16"        // 16 basic colours
	Colour256  Colour = "256"       // the xterm 256-colour palette
	ColourTrue Colour = "truecolor" // 24-bit colour
	ColourNone Colour = "none"      // no colour codes at all; bold and reverse video stay
)

var (
	allSymbols = []Symbols{SymbolsUnicode, SymbolsASCII}
	allColours = []Colour{ColourAuto, Colour16, Colour256, ColourTrue, ColourNone}
	allChats   = []Chat{ChatOn, ChatOff}
)

// normal returns s with unknown or empty options set to their defaults.
func (s Settings) normal() Settings {
	if !slices.Contains(allSymbols, s.Symbols) {
		s.Symbols = SymbolsUnicode
	}
	if !slices.Contains(allColours, s.Colour) {
		s.Colour = ColourAuto
	}
	if !slices.Contains(allChats, s.Chat) {
		s.Chat = ChatOn
	}
	return s
}

// label names a symbol set on the settings screen.
func (s Symbols) label() string {
	if s == SymbolsASCII {
		return "ASCII"
	}
	return "Unicode"
}

// label names a colour depth on the settings screen.
func (c Colour) label() string {
	if c == ColourTrue {
		return "true colour"
	}
	return string(c)
}

// profileName says a colour profile in the player's words.
func profileName(p colorprofile.Profile) string {
	switch p {
	case colorprofile.TrueColor:
		return "true colour"
	case colorprofile.ANSI256:
		return "256 colours"
	case colorprofile.ANSI:
		return "16 colours"
	}
	return "no colour"
}

// profile is the colour profile the session draws with: the terminal's
// when the colour is auto, else the player's choice.
func (m *Model) profile() colorprofile.Profile {
	switch m.set.Colour {
	case Colour16:
		return colorprofile.ANSI
	case Colour256:
		return colorprofile.ANSI256
	case ColourTrue:
		return colorprofile.TrueColor
	case ColourNone:
		return colorprofile.ASCII
	}
	return m.detected
}

// ascii reports whether the session draws in the ASCII symbol set.
func (m *Model) ascii() bool { return m.set.Symbols == SymbolsASCII }

// profileReported takes a colour profile Bubble Tea reports: the
// terminal's (detected at start, or upgraded when it answers the true
// colour query), or one this model forced, which comes back the same way.
// A profile other than the one chosen is forced again, so the renderer
// always downsamples to the player's choice.
func (m *Model) profileReported(p colorprofile.Profile) tea.Cmd {
	if i := slices.Index(m.forced, p); i >= 0 {
		m.forced = slices.Delete(m.forced, i, i+1)
	} else {
		m.detected = p
	}
	m.th = newTheme(m.profile())
	if p != m.profile() && len(m.forced) == 0 {
		return m.forceProfile()
	}
	return nil
}

// forceProfile returns the command that sets Bubble Tea's renderer to the
// chosen profile (the program handles a ColorProfileMsg by doing so).
func (m *Model) forceProfile() tea.Cmd {
	p := m.profile()
	m.forced = append(m.forced, p)
	return func() tea.Msg { return tea.ColorProfileMsg{Profile: p} }
}

// finish makes a frame follow the settings: colours downsampled to a
// chosen depth (the renderer does so too; this keeps the frame itself
// honest), and, in ASCII, no byte above 0x7F.
func (m *Model) finish(s string) string {
	if m.set.Colour != ColourAuto {
		var b strings.Builder
		w := colorprofile.Writer{Forward: &b, Profile: m.profile()}
		w.WriteString(s)
		s = b.String()
	}
	if m.ascii() {
		s = asciiOnly(s)
	}
	return s
}

// asciiMark returns the glyph of a monster or item kind in the ASCII
// symbol set: the data's (content.Monster.ASCII, content.Item.ASCII), else
// ch itself (asciiOnly then catches anything left).
func asciiMark(data *content.Tables, kind string, ch rune) rune {
	if k, ok := data.Monster(kind); ok && k.ASCII != 0 {
		return k.ASCII
	}
	if it, ok := data.Item(kind); ok && it.ASCII != 0 {
		return it.ASCII
	}
	return ch
}

// asciiOnly replaces every rune above 0x7F in s with printable ASCII of the
// same width: box drawing with + - |, arrows with ^ v < >, dots and dashes
// with . and -, anything else with ?. Escape sequences are ASCII already.
func asciiOnly(s string) string {
	i := 0
	for i < len(s) && s[i] < 0x80 {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if r < 0x80 {
			b.WriteRune(r)
			continue
		}
		c := asciiRune(r)
		for range max(1, ansi.StringWidth(string(r))) {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// asciiRune is the ASCII stand-in of a non-ASCII rune, one cell wide.
func asciiRune(r rune) byte {
	switch {
	case strings.ContainsRune("─━┄┈═╌", r):
		return '-'
	case strings.ContainsRune("│┃┆┊║╎", r):
		return '|'
	case r >= 0x2500 && r <= 0x257f: // other box drawing: corners and joints
		return '+'
	case r >= 0x2580 && r <= 0x259f: // blocks and shades
		return '#'
	case strings.ContainsRune("↑▲", r):
		return '^'
	case strings.ContainsRune("↓▼", r):
		return 'v'
	case strings.ContainsRune("←◀", r):
		return '<'
	case strings.ContainsRune("→▶", r):
		return '>'
	case strings.ContainsRune("·•…", r):
		return '.'
	case strings.ContainsRune("–—−", r):
		return '-'
	case r == '×':
		return 'x'
	case strings.ContainsRune("‘’", r):
		return '\''
	case strings.ContainsRune("“”", r):
		return '"'
	}
	return '?'
}

// settingsScreen changes the player's settings: each change applies at once
// and is saved in their profile.
type settingsScreen struct {
	back screen
	row  int    // 0 symbols, 1 colour, 2 chat, 3 watchers (this game's, not kept)
	note string // whether the last change was saved
	bad  bool   // the note says a save failed
}

func newSettings(back screen) *settingsScreen { return &settingsScreen{back: back} }

func (s *settingsScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	step, rows := 0, 3
	if m.chat != nil {
		rows = 4
	}
	switch k.String() {
	case "esc", "q", "O", "o":
		return s.back, nil
	case "up", "k":
		s.row = (s.row + rows - 1) % rows
	case "down", "j", "tab":
		s.row = (s.row + 1) % rows
	case "left", "h":
		step = -1
	case "right", "l", "enter", "space":
		step = 1
	}
	if step == 0 {
		return s, nil
	}
	next := m.set
	switch s.row {
	case 0:
		next.Symbols = cycle(allSymbols, next.Symbols, step)
	case 1:
		next.Colour = cycle(allColours, next.Colour, step)
	case 2:
		next.Chat = cycle(allChats, next.Chat, step)
	default: // this game's watchers: not a setting, nothing to save
		if m.chat != nil {
			m.muteChoice = !m.muteChoice
			m.syncWatchersMute()
			s.note, s.bad = "Only for this game: watchers may talk again next game.", false
			if m.set.Chat == ChatOff {
				s.note = "Your chat is off: its watchers cannot talk until you turn it on."
			}
		}
		return s, nil
	}
	cmd := s.apply(m, next)
	m.syncWatchersMute()
	return s, cmd
}

// cycle returns the option step places from cur in opts, wrapping.
func cycle[T comparable](opts []T, cur T, step int) T {
	i := max(0, slices.Index(opts, cur))
	return opts[(i+step+len(opts))%len(opts)]
}

// apply makes next the session's settings at once and saves them; a save
// that fails is said on the screen, and the choice still holds until the
// player leaves.
func (s *settingsScreen) apply(m *Model, next Settings) tea.Cmd {
	colour := next.Colour != m.set.Colour
	m.set = next
	m.th = newTheme(m.profile())
	s.note, s.bad = "Saved: grotto will remember this next time.", false
	switch {
	case m.p.SaveSettings == nil:
		s.note, s.bad = "These settings cannot be kept here; they apply until you leave.", true
	default:
		if err := m.p.SaveSettings(next); err != nil {
			s.note, s.bad = fmt.Sprintf("Your settings could not be saved (%v); they apply until you leave.", err), true
		}
	}
	if colour {
		return m.forceProfile()
	}
	return nil
}

// legendTiles are the tile kinds the settings screen shows in both symbol
// sets, with their names.
var legendTiles = []struct {
	t    world.Tile
	name string
}{
	{world.Wall, "wall"}, {world.Floor, "floor"}, {world.Gravel, "gravel"}, {world.ShallowWater, "pool"},
	{world.DeepWater, "deep water"}, {world.Stalactite, "stalactite"}, {world.Stalagmite, "stalagmite"},
	{world.DownStairs, "stairs"},
}

// mapLegend is the settings' "Map:" lines of the tiles' symbols in the
// symbols chosen, wrapped between entries (never inside one) at the
// screen's width less the margins, at most 72 columns.
func mapLegend(m *Model) []string {
	var legend []string
	for _, l := range legendTiles {
		g := string(lookOf(l.t, false).ch)
		if c := lookOf(l.t, true).ch; c != lookOf(l.t, false).ch {
			g += " " + string(c)
		}
		if m.ascii() {
			g = string(l.t.ASCII())
		}
		legend = append(legend, g+" "+l.name)
	}
	var lines []string
	line, width := "Map:", min(m.w-4, 72)
	for _, l := range legend {
		if ansi.StringWidth(line)+3+ansi.StringWidth(l) > width {
			lines = append(lines, line)
			line = "    "
		}
		line += "   " + l
	}
	return append(lines, line)
}

func (s *settingsScreen) view(m *Model) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.title.Render("Settings") + "\n\n")
	row := func(i int, name string, values []string, chosen int) {
		label := fmt.Sprintf("  %-9s", name)
		if i == s.row {
			b.WriteString(th.selected.Render(fmt.Sprintf("> %-9s", name))) // seen without colours too
		} else {
			b.WriteString(th.heading.Render(label))
		}
		for j, v := range values {
			if j == chosen {
				b.WriteString(" " + th.title.Render("["+v+"]"))
			} else {
				b.WriteString(" " + th.text.Render(" "+v+" "))
			}
		}
		b.WriteString("\n")
	}
	var syms, cols []string
	for _, v := range allSymbols {
		syms = append(syms, v.label())
	}
	for _, v := range allColours {
		cols = append(cols, v.label())
	}
	row(0, "Symbols", syms, slices.Index(allSymbols, m.set.Symbols))
	row(1, "Colour", cols, slices.Index(allColours, m.set.Colour))
	row(2, "Chat", []string{"on", "off"}, slices.Index(allChats, m.set.Chat))
	if m.chat != nil {
		muted := 0
		if m.muteChoice {
			muted = 1
		}
		row(3, "Watchers", []string{"may talk", "muted"}, muted)
		if m.set.Chat == ChatOff { // the room's mute holds whatever the choice (syncWatchersMute)
			b.WriteString(th.dim.Render("            muted while your chat is off") + "\n")
		}
	}
	b.WriteString("\n")
	for _, line := range mapLegend(m) {
		b.WriteString(th.text.Render(line) + "\n")
	}
	detected := "Drawing in " + profileName(m.profile())
	if m.set.Colour == ColourAuto {
		detected += ", as this terminal reports"
	}
	b.WriteString(th.dim.Render(detected+".") + "\n\n")
	switch {
	case s.bad:
		b.WriteString(th.hpLow.Render(ansi.Wordwrap(s.note, min(m.w-4, 72), "")) + "\n")
	case s.note != "":
		b.WriteString(th.text.Render(s.note) + "\n")
	default:
		b.WriteString("\n")
	}
	b.WriteString("\n" + th.dim.Render("↑/↓ choose · ←/→ change · Esc back"))
	return m.center(b.String())
}
