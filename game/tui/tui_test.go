package tui

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// testNow is the clock of every test session.
var testNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// newPlayer returns the player of key fp over st: its games kept by a
// fakePlay, the score table read from st. A name other than "" is claimed
// in st first; new games have seed.
func newPlayer(t testing.TB, st *fakeStore, fp, name string, seed uint64) Player {
	t.Helper()
	if name != "" {
		st.ClaimName(fp, name)
	}
	// A test reads its game between keys: a store call slower than the
	// default notice (a loaded machine's fsync) would show the wait screen
	// and leave the game to the call meanwhile. Tests of that set their own.
	return Player{Name: name, Play: newFakePlay(st, fp, seed), Board: st, Now: func() time.Time { return testNow },
		StallNotice: time.Hour}
}

// adopt makes g the game m plays, as a resumed save: it is stored as the
// player's save, opened and continued through the Play.
func adopt(t testing.TB, m *Model, g *game.Game) {
	t.Helper()
	tp := m.p.Play.(*fakePlay)
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := tp.st.PutSave(tp.fp, blob); err != nil {
		t.Fatal(err)
	}
	if g, _, err := tp.Open(); err != nil || g == nil {
		t.Fatalf("open the adopted game: %v", err)
	}
	if err := tp.Continue(); err != nil {
		t.Fatal(err)
	}
	m.game = tp.Game()
}

func newModel(t *testing.T, st *fakeStore, seed uint64) *Model {
	t.Helper()
	m := New(newPlayer(t, st, "SHA256:test", "tester", seed))
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return m
}

// press sends one key, named as Bubble Tea names it ("enter", "j", "S").
func press(m *Model, key string) tea.Cmd {
	var k tea.KeyPressMsg
	switch key {
	case "enter":
		k = tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		k = tea.KeyPressMsg{Code: tea.KeyEscape}
	default:
		r := []rune(key)[0]
		k = tea.KeyPressMsg{Code: r, Text: key}
	}
	_, cmd := m.Update(k)
	return cmd
}

// screen is the model's view without colours.
func plain(m *Model) string { return ansi.Strip(m.View().Content) }

func TestStartMoveAndImpossibleMoveCostsNoTurn(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "Turn: 0") || !strings.Contains(s, "@") {
		t.Fatalf("not playing:\n%s", s)
	}
	// Walk into walls until a step is refused: the turn must not move.
	for _, k := range []string{"k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k"} {
		press(m, k)
	}
	s := plain(m)
	if !strings.Contains(s, "That way is blocked.") {
		t.Fatalf("walking north into the wall never blocked:\n%s", s)
	}
	before := m.game.Turn()
	press(m, "k")
	if m.game.Turn() != before {
		t.Error("a blocked move took a turn")
	}
	press(m, "Z")
	if !strings.Contains(plain(m), `Unknown command "Z". Press ? for help.`) || m.game.Turn() != before {
		t.Error("an unknown key should say so and take no turn")
	}
	// A named key is named as the help and the key caps name it (a
	// tester saw 'Unknown command "enter"').
	for _, c := range []struct {
		key  tea.KeyPressMsg
		want string
	}{
		{tea.KeyPressMsg{Code: tea.KeyEnter}, `"Enter"`},
		{tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}, `"Ctrl+t"`},
		{tea.KeyPressMsg{Code: tea.KeyF5}, `"F5"`},
	} {
		m.Update(c.key)
		if s := plain(m); !strings.Contains(s, "Unknown command "+c.want+".") {
			t.Errorf("%s: the note is not 'Unknown command %s.':\n%s", c.key, c.want, s)
		}
	}
}

func TestTinyTerminalAsksToEnlarge(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	m.Update(tea.WindowSizeMsg{Width: 39, Height: 20})
	if s := plain(m); !strings.Contains(s, "enlarge") || strings.Contains(s, "HP") {
		t.Fatalf("39 columns should ask to enlarge:\n%s", s)
	}
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	if s := plain(m); !strings.Contains(s, "HP 30/30 D1 L1 XP0/350 T0 K0") { // the status line, in its narrow form
		t.Fatalf("40x12 should play:\n%s", s)
	}
	if lines := strings.Count(m.View().Content, "\n") + 1; lines != 12 {
		t.Errorf("frame has %d lines at height 12", lines)
	}
}

func TestSaveThenContinueIsSelectedOnTheTitle(t *testing.T) {
	st := newFakeStore()
	m := newModel(t, st, 7)
	press(m, "enter")
	press(m, ".")
	press(m, ".")
	if cmd := press(m, "S"); cmd == nil || m.Exit() != ExitSaved {
		t.Fatal("S should save and quit")
	}
	m2 := newModel(t, st, 99)
	s := plain(m2)
	if !strings.Contains(s, "Continue") || !strings.Contains(s, "turn 2") {
		t.Fatalf("title after a save:\n%s", s)
	}
	press(m2, "enter")
	if m2.game == nil || m2.game.Turn() != 2 || m2.game.Seed() != 7 {
		t.Fatal("Enter on the title did not resume the saved game")
	}
}

func TestNewGameOverASaveAsksFirst(t *testing.T) {
	st := newFakeStore()
	m := newModel(t, st, 7)
	press(m, "enter")
	press(m, ".")
	m.p.Play.Save()
	m2 := newModel(t, st, 8)
	press(m2, "n")
	if !strings.Contains(plain(m2), "will be lost") {
		t.Fatalf("no confirmation:\n%s", plain(m2))
	}
	press(m2, "x") // anything but y keeps the save
	if m2.game != nil {
		t.Fatal("a new game started without a yes")
	}
	press(m2, "n")
	press(m2, "y")
	if m2.game == nil || m2.game.Seed() != 8 || m2.game.Turn() != 0 {
		t.Fatal("y did not start a new game")
	}
}

func TestTheEndOfAGameRecordsTheScoreAndDeletesTheSave(t *testing.T) {
	st := newFakeStore()
	m := newModel(t, st, 3)
	press(m, "enter")
	for i := 0; i < 20000 && !m.game.Over(); i++ {
		press(m, towardStairs(m))
	}
	if !m.game.Over() {
		t.Fatalf("no death in 20000 turns of diving:\n%s", plain(m))
	}
	s := strings.Join(strings.Fields(plain(m)), " ") // the cause may wrap
	ending := []string{"You died.", m.game.Cause()}
	if m.game.Won() {
		ending = []string{"You escaped the grotto!"}
	}
	for _, want := range append(ending, "Rank #1") {
		if !strings.Contains(s, want) {
			t.Errorf("game-over screen lacks %q:\n%s", want, s)
		}
	}
	if _, err := st.Save("SHA256:test"); err == nil {
		t.Error("the save outlived the player (permadeath)")
	}
	scores, _ := st.TopScores(10)
	if len(scores) != 1 || scores[0].Points != m.game.Score() || scores[0].Name != "tester" {
		t.Fatalf("scores = %+v", scores)
	}
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "tester") || strings.Contains(s, "Continue") {
		t.Errorf("title after death:\n%s", s)
	}
}

func TestCameraScrollsInJumpsNotEveryStep(t *testing.T) {
	// A 20-tile view on an 80-tile level: the camera holds still while the
	// player walks in the middle, and jumps when they near an edge.
	var c camera
	c.follow(pos(10, 0), nil, 20, 50, 80, 43)
	start := c.x
	moves := 0
	for x := 11; x < 70; x++ {
		prev := c.x
		c.follow(pos(x, 0), nil, 20, 50, 80, 43)
		if c.x != prev {
			moves++
		}
		if x-c.x < 0 || x-c.x >= 20 {
			t.Fatalf("player at %d left the view at offset %d", x, c.x)
		}
	}
	if moves == 0 || moves > 10 {
		t.Errorf("camera moved %d times over 59 steps (from %d); want a few jumps", moves, start)
	}
	// A level shorter than the view is centred, never scrolled.
	if c.y != -(50-43)/2 {
		t.Errorf("y offset %d, want centred", c.y)
	}
	c.follow(pos(79, 0), nil, 20, 50, 80, 43)
	if c.x != 60 {
		t.Errorf("at the right edge offset %d, want 60 (clamped)", c.x)
	}
}

// towardStairs returns the key that walks the player one step down the
// shortest path to the stairs (attacking whatever stands in the way), or ">"
// on them: a player who dives until something kills them.
func towardStairs(m *Model) string {
	g := m.game
	w, h := g.Size()
	for y := range h {
		for x := range w {
			if p := (world.Pos{X: x, Y: y}); g.Tile(p) == world.DownStairs {
				if g.Player().Pos == p {
					return ">"
				}
				return stepToward(g, p)
			}
		}
	}
	return "."
}

// stepToward returns the key of one step along the shortest walk to goal.
func stepToward(g *game.Game, goal world.Pos) string {
	w, h := g.Size()
	lvl := world.NewMap(w, h)
	for y := range h {
		for x := range w {
			p := world.Pos{X: x, Y: y}
			lvl.Set(p, g.Tile(p))
		}
	}
	me := g.Player().Pos
	d := world.NewDistanceMap(w, h)
	d.Compute(lvl, goal, world.Unreached)
	keys := map[world.Pos]string{{X: 0, Y: -1}: "k", {X: 0, Y: 1}: "j", {X: -1, Y: 0}: "h", {X: 1, Y: 0}: "l",
		{X: -1, Y: -1}: "y", {X: 1, Y: -1}: "u", {X: -1, Y: 1}: "b", {X: 1, Y: 1}: "n"}
	for _, dir := range world.Directions8 {
		if d.At(me.Add(dir.X, dir.Y)) < d.At(me) {
			return keys[dir]
		}
	}
	return "."
}

func BenchmarkPlayFrame(b *testing.B) {
	st := newFakeStore()
	m := New(newPlayer(b, st, "SHA256:bench", "bench", 5))
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	for b.Loop() {
		m.View()
	}
}

func TestCtrlCSavesAndLeavesFromAnyScreen(t *testing.T) {
	for _, via := range []string{"", "v", "?"} {
		st := newFakeStore()
		m := newModel(t, st, 7)
		press(m, "enter")
		press(m, ".")
		if via != "" {
			press(m, via)
		}
		if _, cmd := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}); cmd == nil || m.Exit() != ExitSaved {
			t.Errorf("ctrl+c from %q: exit %v", via, m.Exit())
		}
		if _, err := st.Save("SHA256:test"); err != nil {
			t.Errorf("ctrl+c from %q did not save: %v", via, err)
		}
	}
}

func TestNarrowStatusLineKeepsWholeNumbers(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	adopt(t, m, withoutMonsters(t, m.game)) // alive after 1234 turns of waiting
	for i := range 1234 {
		if i%100 == 0 {
			noArrivals(t, m) // an arrived pack member no longer waits for ever
		}
		press(m, ".")
	}
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	if s := plain(m); !strings.Contains(s, "T1234") && !strings.Contains(s, "Turn: 1234") {
		t.Errorf("turn 1234 cut short at 40 columns:\n%s", s)
	}
}

// cells draws the model's current frame on a terminal emulator, to read
// colours and attributes as a player's terminal shows them.
func cells(t *testing.T, m *Model) *vt.Emulator {
	t.Helper()
	emu := vt.NewEmulator(m.w, m.h)
	emu.WriteString(strings.ReplaceAll(m.View().Content, "\n", "\r\n"))
	return emu
}

func TestInventoryListsWhatTheVerbAcceptsAndRefusesOtherLetters(t *testing.T) {
	m := newModel(t, newFakeStore(), fireballSeed)
	press(m, "enter")
	walkTo(t, m, game.FireballScroll)
	press(m, "g")
	press(m, "q")
	if s := plain(m); !strings.Contains(s, "Select a potion to quaff") || strings.Contains(s, "fireball") {
		t.Fatalf("quaff menu lists a scroll:\n%s", s)
	}
	press(m, "a") // the scroll's letter: not a potion
	if s := plain(m); !strings.Contains(s, "Invalid entry.") || !strings.Contains(s, "quaff") {
		t.Fatalf("an unlisted letter should say Invalid entry and keep the menu:\n%s", s)
	}
	press(m, "esc")
	press(m, "i")
	if s := plain(m); !strings.Contains(s, "(a) fireball scroll") {
		t.Fatalf("use menu:\n%s", s)
	}
}

func TestEscapeFromTargetingCostsNothing(t *testing.T) {
	m := newModel(t, newFakeStore(), fireballSeed)
	press(m, "enter")
	walkTo(t, m, game.FireballScroll)
	press(m, "g")
	turn := m.game.Turn()
	press(m, "i")
	press(m, "a")
	press(m, "l")
	press(m, "esc")
	if m.game.Turn() != turn || len(m.game.Inventory()) != 1 {
		t.Errorf("Esc from targeting: turn %d→%d, pack %d", turn, m.game.Turn(), len(m.game.Inventory()))
	}
}

func TestAreaPreviewHighlightsExactlyTheBlast(t *testing.T) {
	m := newModel(t, newFakeStore(), fireballSeed)
	press(m, "enter")
	walkTo(t, m, game.FireballScroll)
	press(m, "g")
	press(m, "i")
	press(m, "a")
	for _, k := range []string{"l", "L"} { // 6 east, wherever that is
		press(m, k)
	}
	ts := m.scr.(*targetScreen)
	emu := cells(t, m)
	mapRows, _ := m.layout()
	cam := ts.back.cam
	w, h := m.game.Size()
	want, seen := map[world.Pos]bool{}, 0
	for _, p := range game.BlastArea(w, h, ts.cursor, game.FireballRadius) {
		want[p] = true
	}
	for y := range mapRows {
		for x := range m.w {
			p := world.Pos{X: cam.x + x, Y: cam.y + y}
			c := emu.CellAt(x, y)
			lit := c != nil && c.Style.Bg != nil
			if p == ts.cursor {
				if c == nil || c.Style.Attrs&uv.AttrReverse == 0 {
					t.Errorf("cursor at %v is not drawn in reverse video", p)
				}
				continue
			}
			if lit != want[p] {
				t.Errorf("tile %v highlighted=%v, in the blast=%v", p, lit, want[p])
			}
			if lit {
				seen++
			}
		}
	}
	if seen != len(want)-1 {
		t.Errorf("%d tiles highlighted, want the %d of the blast but the cursor's", seen, len(want)-1)
	}
}

// walkTo walks the player to the nearest item of kind on the level.
// walkTo walks the player onto an item of kind on the level. The player
// knows the kind (these tests are about what using it asks, not identification);
// with none on the level, one is put under the player.
func walkTo(t *testing.T, m *Model, kind game.ItemKind) {
	t.Helper()
	if !tryWalkTo(t, m, kind) {
		t.Fatalf("could not reach a %s", kind)
	}
}

// tryWalkTo is walkTo that reports false, instead of failing, when 200
// steps do not reach the item (a monster or the map in the way).
func tryWalkTo(t *testing.T, m *Model, kind game.ItemKind) bool {
	t.Helper()
	here := false
	for _, it := range m.game.Items() {
		here = here || it.Kind == kind
	}
	adopt(t, m, editSave(t, m.game, func(state map[string]any) {
		known, _ := state["Known"].([]any)
		state["Known"] = append(known, string(kind))
		if !here {
			p := m.game.Player().Pos
			items, _ := state["Items"].([]any)
			state["Items"] = append(items, map[string]any{"Kind": string(kind), "Pos": map[string]any{"X": p.X, "Y": p.Y}})
		}
	}))
	for range 200 {
		g := m.game
		var goal *world.Pos
		for _, it := range g.Items() {
			if it.Kind == kind {
				goal = &it.Pos
				break
			}
		}
		if goal == nil {
			t.Fatalf("no %s on the level", kind)
		}
		if g.Player().Pos == *goal {
			return true
		}
		press(m, stepToward(g, *goal))
	}
	return false
}

func TestLookModeNamesWhatIsUnderTheCursorAndCostsNoTurn(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	press(m, "/")
	ts, ok := m.scr.(*targetScreen)
	if !ok || ts.cursor != m.game.Player().Pos {
		t.Fatal("look mode should start with the cursor on the player")
	}
	if s := strings.Join(strings.Fields(plain(m)), " "); !strings.Contains(s, "You, floor. Bare ground you can walk on.") {
		t.Errorf("look on the player should name you:\n%s", s)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModCtrl})
	if d := ts.cursor.X - m.game.Player().Pos.X; d != 10 {
		t.Errorf("ctrl+right moved the cursor %d tiles, want 10", d)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModAlt})
	if ts.cursor.X != max(0, m.game.Player().Pos.X-10) {
		t.Errorf("alt+left: cursor x %d", ts.cursor.X)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModShift})
	if ts.cursor.Y != min(42, m.game.Player().Pos.Y+5) {
		t.Errorf("shift+down: cursor y %d", ts.cursor.Y)
	}
	press(m, "esc")
	if _, ok := m.scr.(*playScreen); !ok || m.game.Turn() != 0 {
		t.Errorf("Esc should leave look mode at no cost (turn %d)", m.game.Turn())
	}
}

func TestMouseHoverMovesTheCursorAndAClickFires(t *testing.T) {
	m := newModel(t, newFakeStore(), fireballSeed)
	press(m, "enter")
	walkTo(t, m, game.FireballScroll)
	press(m, "g")
	press(m, "i")
	press(m, "a")
	ts := m.scr.(*targetScreen)
	if m.View().MouseMode == tea.MouseModeNone {
		t.Fatal("targeting should turn mouse reporting on")
	}
	me := m.game.Player().Pos
	x, y := me.X-ts.back.cam.x+1, me.Y-ts.back.cam.y // one tile east, on screen
	m.Update(tea.MouseMotionMsg{X: x, Y: y})
	if ts.cursor != me.Add(1, 0) {
		t.Fatalf("hover put the cursor at %v, want %v", ts.cursor, me.Add(1, 0))
	}
	hp := m.game.Player().HP
	m.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}) // the blast would burn you: a warning
	if m.game.Player().HP != hp || !strings.Contains(plain(m), selfWarning) {
		t.Fatalf("the first click fired a blast that burns you without a warning: HP %d → %d", hp, m.game.Player().HP)
	}
	m.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	if m.game.Player().HP != hp-game.FireballDamage {
		t.Errorf("a click did not fire: HP %d → %d", hp, m.game.Player().HP)
	}
	if m.View().MouseMode != tea.MouseModeNone {
		t.Error("mouse reporting stays on after targeting")
	}
}

func TestAFullPackFitsEveryTerminalSize(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	var pack []game.ItemKind
	for i := range game.InventorySize {
		pack = append(pack, game.ItemKinds()[i%len(game.ItemKinds())])
	}
	adopt(t, m, withPack(t, m.game, pack))
	for _, size := range [][2]int{{40, 12}, {80, 24}, {100, 30}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		press(m, "i")
		s := plain(m)
		lines := strings.Split(s, "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: frame has %d lines", size[0], size[1], len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: a line is %d wide: %q", size[0], size[1], w, l)
			}
		}
		if !strings.Contains(s, "Esc back") {
			t.Errorf("%dx%d: the footer is cut off:\n%s", size[0], size[1], s)
		}
		press(m, "esc")
	}
}

// withPack returns g with its inventory replaced by kinds, made the way a
// save would carry it: through the save format.
func withPack(t *testing.T, g *game.Game, kinds []game.ItemKind) *game.Game {
	t.Helper()
	return editSave(t, g, func(state map[string]any) {
		var inv []map[string]any
		var known []string // the player knows what they carry here
		for _, k := range kinds {
			inv = append(inv, map[string]any{"Kind": string(k)})
			if !slices.Contains(known, string(k)) {
				known = append(known, string(k))
			}
		}
		state["Inventory"] = inv
		state["Known"] = known
	})
}

func TestInertTurnsEveryControlByteIntoAReplacementCharacter(t *testing.T) {
	got := Inert("bob\x1b[2J\x07\x9b31m\tok")
	if strings.ContainsAny(got, "\x1b\x07\t") || strings.ContainsRune(got, 0x9b) || !strings.HasPrefix(got, "bob\uFFFD[2J") {
		t.Errorf("Inert = %q", got)
	}
}

func TestInertTurnsBidirectionalOverridesIntoAReplacementCharacter(t *testing.T) {
	// An admin's reason with a right-to-left override read backwards on
	// every other admin's terminal (a breaker of the moderation log).
	for _, r := range []rune{0x061c, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069} {
		if got := Inert("ok " + string(r) + "txet"); strings.ContainsRune(got, r) || got != "ok \uFFFDtxet" {
			t.Errorf("Inert(U+%04X) = %q", r, got)
		}
	}
	if got := Inert("café ünïcode ✓"); got != "café ünïcode ✓" {
		t.Errorf("Inert changed ordinary text: %q", got)
	}
}

func TestTheNameScreenTakesOnlyValidNames(t *testing.T) {
	p := newPlayer(t, newFakeStore(), "SHA256:n", "", 1)
	p.Name, p.NeedName = "evil\x1b", true
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if s := plain(m); !strings.Contains(s, "Choose the name") || strings.Contains(s, "evil") {
		t.Fatalf("name screen:\n%s", s)
	}
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyEscape}, {Code: 'x', Text: "\x1b[31m"}, {Code: 'a', Text: "a"}, {Code: '!', Text: "!"}, {Code: 'b', Text: "b"}} {
		m.Update(k)
	}
	press(m, "enter")
	if m.p.Name != "ab" {
		t.Errorf("name = %q, want ab (only valid characters typed in)", m.p.Name)
	}
}

func TestBackslashIsUnknownForPlayersAndACheatMenuForAdmins(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	press(m, `\`)
	if s := plain(m); !strings.Contains(s, "Unknown command.") || strings.Contains(s, "Cheating") {
		t.Errorf("non-admin:\n%s", s)
	}
	m.p.Admin = func() bool { return true }
	press(m, `\`)
	press(m, "c")
	press(m, "f") // the sixth item: fireball scroll
	if inv := m.game.Inventory(); len(inv) != 1 || inv[0].Kind != game.FireballScroll || !m.game.Cheated() {
		t.Errorf("create item: pack %+v cheated %v", inv, m.game.Cheated())
	}
}

func TestEveryTurnShownSurvivesACrash(t *testing.T) {
	st := newFakeStore()
	m := newModel(t, st, 7)
	press(m, "enter")
	for range 30 {
		press(m, towardStairs(m))
	}
	want, _ := m.game.Encode()
	// The server dies here: no Persist, no goodbye. Only what each turn
	// wrote before it was drawn is on disk.
	m2 := newModel(t, st, 99)
	if s := plain(m2); !strings.Contains(s, fmt.Sprintf("turn %d", m.game.Turn())) {
		t.Fatalf("title after the crash:\n%s", s)
	}
	press(m2, "enter")
	got, _ := m2.game.Encode()
	if !bytes.Equal(want, got) {
		t.Errorf("the resumed game differs from the one on screen at the crash (turn %d vs %d)", m2.game.Turn(), m.game.Turn())
	}
}

func TestADamagedSaveIsSetAsideAndTheTitleSaysSo(t *testing.T) {
	st := newFakeStore()
	st.PutSave("SHA256:test", []byte("GRTO\x00\x01garbage garbage"))
	m := newModel(t, st, 7)
	s := plain(m)
	if !strings.Contains(s, "damaged") || strings.Contains(s, "Continue") {
		t.Fatalf("title with a damaged save:\n%s", s)
	}
	if reasons, _ := st.Quarantined("SHA256:test"); len(reasons) != 1 {
		t.Errorf("quarantine holds %v", reasons)
	}
	press(m, "n")
	if m.game == nil || m.game.Turn() != 0 {
		t.Error("no new game after a damaged save")
	}
}

func TestAnIdleSessionSavesAndSaysGoodbye(t *testing.T) {
	st := newFakeStore()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	p := newPlayer(t, st, "SHA256:idle", "idler", 7)
	p.Now, p.IdleTimeout = func() time.Time { return now }, 30*time.Minute
	m := New(p)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press(m, "enter")
	press(m, ".")
	now = now.Add(29 * time.Minute)
	if _, cmd := m.Update(IdleCheckMsg{}); cmd != nil {
		t.Fatal("quit before the idle timeout")
	}
	now = now.Add(2 * time.Minute)
	if _, cmd := m.Update(IdleCheckMsg{}); cmd == nil || m.Exit() != ExitIdle {
		t.Fatal("no goodbye after 31 idle minutes")
	}
	if _, err := st.Save("SHA256:idle"); err != nil {
		t.Errorf("the idle game was not saved: %v", err)
	}
}

// fireballSeed is the seed of the tests that walk to a fireball scroll
// lying on depth 1. (Seed 247's depth 1 lost its fireball scroll
// once food rations joined the spawn table.)
const fireballSeed = 1
