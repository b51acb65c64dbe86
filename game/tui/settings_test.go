package tui

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// cavernModel returns a model playing a fresh game taken to depth 3 (the
// limestone caverns, drawn with ▒ ░ ▓ ╨ ╥ in Unicode) with the whole level
// explored, at 80x24, with the player's settings set.
func cavernModel(t *testing.T, set Settings) *Model {
	t.Helper()
	p := newPlayer(t, newFakeStore(), "SHA256:caves", "caver", 5)
	p.Settings = set
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press(m, "enter")
	adopt(t, m, caverns(t, 5))
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24}) // settles the camera
	return m
}

// caverns returns a new game of seed taken to depth 3, the limestone
// caverns, with the whole level explored.
func caverns(t *testing.T, seed uint64) *game.Game {
	t.Helper()
	g := game.New(seed, content.Default())
	for _, c := range []game.Command{game.CheatCommand(game.CheatTeleport, ""), game.CheatCommand(game.CheatTeleport, ""),
		game.CheatCommand(game.CheatReveal, "")} {
		if _, err := g.Apply(c); err != nil {
			t.Fatal(err)
		}
	}
	if !g.Dark() || g.Depth() != 3 {
		t.Fatalf("not in the caverns: depth %d", g.Depth())
	}
	return g
}

// highByte returns the first byte above 0x7F in s and its offset, or -1.
func highByte(s string) int {
	for i := range len(s) {
		if s[i] > 0x7f {
			return i
		}
	}
	return -1
}

// colourCodes returns the SGR sequences of s that set a colour
// (foreground, background, basic, 256 or true colour).
func colourCodes(s string) []string {
	var found []string
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return found
		}
		s = s[i+2:]
		j := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > ';' })
		if j < 0 {
			return found
		}
		if s[j] == 'm' {
			for _, p := range strings.Split(s[:j], ";") {
				n, err := strconv.Atoi(p)
				if err == nil && (n >= 30 && n <= 49 && n != 39 && n != 49 || n >= 90 && n <= 107) {
					found = append(found, "ESC["+s[:j+1])
					break
				}
			}
		}
		s = s[j:]
	}
}

func TestTheSettingsScreenSwitchesTheMapToASCIIAtOnceAndSavesIt(t *testing.T) {
	m := cavernModel(t, Settings{})
	var saved []Settings
	m.p.SaveSettings = func(s Settings) error { saved = append(saved, s); return nil }
	before := m.View().Content
	if highByte(before) < 0 || !strings.ContainsAny(before, "▒░▓") {
		t.Fatalf("the caverns in Unicode should show block glyphs:\n%s", plain(m))
	}
	press(m, "O")
	if _, ok := m.scr.(*settingsScreen); !ok {
		t.Fatalf("O opened %T, want the settings screen", m.scr)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if s := plain(m); !strings.Contains(s, "[ASCII]") || !strings.Contains(s, "Saved") {
		t.Fatalf("the settings screen after choosing ASCII:\n%s", s)
	}
	if i := highByte(m.View().Content); i >= 0 {
		t.Errorf("the settings screen in ASCII has byte %#x at %d:\n%s", m.View().Content[i], i, plain(m))
	}
	press(m, "esc")
	after := m.View().Content
	if i := highByte(after); i >= 0 {
		t.Fatalf("the play frame in ASCII has byte %#x at %d:\n%s", after[i], i, plain(m))
	}
	if !strings.Contains(plain(m), "#") || !strings.ContainsAny(plain(m), "~}") {
		t.Errorf("the caverns in ASCII should show walls and water:\n%s", plain(m))
	}
	if len(saved) != 1 || saved[0] != (Settings{Symbols: SymbolsASCII, Colour: ColourAuto, Chat: ChatOn}) {
		t.Errorf("saved %+v, want one save of ASCII with auto colour", saved)
	}
}

func TestEveryTileKindHasItsOwnASCIIGlyph(t *testing.T) {
	seen := map[rune]world.Tile{}
	for tile := world.Tile(0); tile.Valid(); tile++ {
		if tile.Hidden() {
			continue // drawn as what it looks like
		}
		ch := tile.ASCII()
		if ch <= ' ' || ch >= 0x7f || ch == '?' {
			t.Errorf("tile %d is %q in ASCII", tile, ch)
		}
		if other, ok := seen[ch]; ok {
			t.Errorf("tiles %d and %d are both %q in ASCII", other, tile, ch)
		}
		seen[ch] = tile
	}
	if got := asciiMark(content.Default(), "cube", '▄'); got != 'c' {
		t.Errorf("the gelatinous cube is %q in ASCII, want 'c'", got)
	}
}

func TestASCIIOnlyKeepsTheWidthOfWhatItReplaces(t *testing.T) {
	for in, want := range map[string]string{
		"↑/↓ choose · Esc":  "^/v choose . Esc",
		"╭─╮\n│x│\n╰─╯":     "+-+\n|x|\n+-+",
		"\x1b[31m▒░▓\x1b[m": "\x1b[31m###\x1b[m",
		"name 名":            "name ??",
		"plain":             "plain",
	} {
		if got := asciiOnly(in); got != want {
			t.Errorf("asciiOnly(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestColourNoneDrawsNoColourCodesAndTheRendererIsTold(t *testing.T) {
	m := cavernModel(t, Settings{})
	m.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor}) // what the terminal reported
	if len(colourCodes(m.View().Content)) == 0 {
		t.Fatal("the play frame in auto colour has no colour codes: the test cannot see a change")
	}
	press(m, "O")
	press(m, "j")
	var cmds []tea.Cmd
	for range 4 { // auto → 16 → 256 → true colour → none
		_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyRight})
		cmds = append(cmds, cmd)
	}
	if !strings.Contains(plain(m), "[none]") {
		t.Fatalf("four steps right should choose none:\n%s", plain(m))
	}
	if c := colourCodes(m.View().Content); len(c) > 0 {
		t.Errorf("the settings screen in no colour has %q", c)
	}
	press(m, "esc")
	if c := colourCodes(m.View().Content); len(c) > 0 {
		t.Errorf("the play frame in no colour has %q", c)
	}
	// The renderer is told to draw without colour, whatever order the
	// profiles come back in, and stays so when the terminal reports its
	// profile again (answering the true colour query).
	slices.Reverse(cmds)
	cmds = append(cmds, func() tea.Msg { return tea.ColorProfileMsg{Profile: colorprofile.TrueColor} })
	if got := renderer(m, cmds); got != colorprofile.ASCII {
		t.Errorf("the renderer ends on %v, want the ASCII profile (no colour)", got)
	}
	// Back to auto: the terminal's reported profile again.
	press(m, "O")
	press(m, "j")
	m.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if s := plain(m); !strings.Contains(s, "[auto]") || !strings.Contains(s, "Drawing in true colour, as this terminal reports") {
		t.Errorf("auto should draw as the terminal reported:\n%s", s)
	}
}

// renderer runs cmds as Bubble Tea's program would, handing every colour
// profile message to the renderer (as the program does) and then to the
// model, and returns the profile the renderer ends on.
func renderer(m *Model, cmds []tea.Cmd) colorprofile.Profile {
	var last colorprofile.Profile
	for len(cmds) > 0 {
		cmd := cmds[0]
		cmds = cmds[1:]
		if cmd == nil {
			continue
		}
		if msg, ok := cmd().(tea.ColorProfileMsg); ok {
			last = msg.Profile
			_, next := m.Update(msg)
			cmds = append(cmds, next)
		}
	}
	return last
}

func TestASettingThatCannotBeSavedSaysSoAndStillApplies(t *testing.T) {
	m := cavernModel(t, Settings{})
	m.p.SaveSettings = func(Settings) error { return errors.New("the server's disk is full") }
	press(m, "O")
	m.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if s := strings.Join(strings.Fields(plain(m)), " "); !strings.Contains(s, "could not be saved (the server's disk is full)") ||
		!strings.Contains(s, "apply until you leave") {
		t.Errorf("a failed save is not said:\n%s", s)
	}
	press(m, "esc")
	if i := highByte(m.View().Content); i >= 0 {
		t.Errorf("ASCII does not apply after a failed save:\n%s", plain(m))
	}
}

func TestSettingsFromTheProfileApplyFromTheFirstFrame(t *testing.T) {
	m := cavernModel(t, Settings{Symbols: SymbolsASCII, Colour: ColourNone})
	if v := m.View().Content; highByte(v) >= 0 || len(colourCodes(v)) > 0 {
		t.Errorf("kept settings do not apply:\n%q", v)
	}
	m2 := cavernModel(t, Settings{Symbols: "braille", Colour: "1bit"}) // from a newer grotto
	if m2.set != (Settings{Symbols: SymbolsUnicode, Colour: ColourAuto, Chat: ChatOn}) {
		t.Errorf("unknown settings read as %+v, want the defaults", m2.set)
	}
}

func TestTheTitleOpensTheSettings(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "o")
	if _, ok := m.scr.(*settingsScreen); !ok {
		t.Fatalf("o on the title opened %T", m.scr)
	}
	press(m, "esc")
	if _, ok := m.scr.(*titleScreen); !ok {
		t.Errorf("Esc from the settings went to %T, want the title", m.scr)
	}
}
